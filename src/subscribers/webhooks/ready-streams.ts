/** A delivery stream whose head message is due, with what its concurrency is counted against. */
export interface ReadyStream {
  readonly stream: string;
  readonly teamId: string;
  readonly targetKey: string;
}

/** Takes the entry out of an insertion-ordered map and puts it back last: its turn is over. */
const toBack = <K, V>(map: Map<K, V>, key: K, value: V): void => {
  map.delete(key);
  map.set(key, value);
};

/**
 * The due delivery streams waiting for a slot, served in turn: teams take turns, and within a team its
 * targets take turns, each target's streams in the order they became due. A team with thousands of due
 * messages thus gets one slot's turn like a team with one; a target (or team) at its concurrency limit is
 * passed over without holding back the others. Looking for the next stream skips only the teams and targets
 * at their limit, so its cost is bounded by the slots in use, not by what waits.
 */
export class ReadyStreams {
  private readonly teams = new Map<string, Map<string, string[]>>();
  private readonly members = new Map<string, ReadyStream>();

  get size(): number {
    return this.members.size;
  }

  has(stream: string): boolean {
    return this.members.has(stream);
  }

  add(ready: ReadyStream): void {
    if (this.members.has(ready.stream)) return;
    this.members.set(ready.stream, ready);
    const targets = this.teams.get(ready.teamId) ?? new Map<string, string[]>();
    this.teams.set(ready.teamId, targets);
    const streams = targets.get(ready.targetKey) ?? [];
    targets.set(ready.targetKey, streams);
    streams.push(ready.stream);
  }

  /** The next stream in turn whose team and target both have a free slot; null when none has. */
  take(teamHasSlot: (teamId: string) => boolean, targetHasSlot: (targetKey: string) => boolean): ReadyStream | null {
    for (const [teamId, targets] of this.teams) {
      if (!teamHasSlot(teamId)) continue;
      for (const [targetKey, streams] of targets) {
        if (!targetHasSlot(targetKey)) continue;
        const stream = streams.shift()!;
        if (streams.length === 0) targets.delete(targetKey);
        else toBack(targets, targetKey, streams);
        if (targets.size === 0) this.teams.delete(teamId);
        else toBack(this.teams, teamId, targets);
        const ready = this.members.get(stream)!;
        this.members.delete(stream);
        return ready;
      }
    }
    return null;
  }

  /** Removes every stream of a target (it was turned off); returns them. */
  removeTarget(targetKey: string): string[] {
    const removed: string[] = [];
    for (const [teamId, targets] of this.teams) {
      const streams = targets.get(targetKey);
      if (!streams) continue;
      targets.delete(targetKey);
      if (targets.size === 0) this.teams.delete(teamId);
      for (const stream of streams) this.members.delete(stream);
      removed.push(...streams);
    }
    return removed;
  }
}
