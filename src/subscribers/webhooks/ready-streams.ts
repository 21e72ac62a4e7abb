import { Turns } from '../turns';

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
 * The due delivery streams waiting for a slot, served in turn: teams take turns (Turns: the team served
 * longest ago first), and within a team its targets take turns, each target's streams in the order they
 * became due. A team with thousands of due messages thus gets one slot's turn like a team with one; a
 * target (or team) at its concurrency limit is passed over without holding back the others. Finding the
 * next stream looks at each waiting team once, never at the streams that wait.
 */
export class ReadyStreams {
  private readonly teams = new Map<string, Map<string, string[]>>();
  private readonly turns = new Turns<string>();
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
    const firstOpenTarget = (teamId: string, targets: Map<string, string[]>): string | null => {
      if (!teamHasSlot(teamId)) return null;
      for (const targetKey of targets.keys()) if (targetHasSlot(targetKey)) return targetKey;
      return null;
    };
    const turn = this.turns.next(this.teams, firstOpenTarget);
    if (turn === null) return null;
    const { key: teamId, start: targetKey } = turn;
    this.turns.served(teamId);
    const targets = this.teams.get(teamId)!;
    const streams = targets.get(targetKey)!;
    const stream = streams.shift()!;
    // The target's turn within its team is over.
    if (streams.length === 0) targets.delete(targetKey);
    else toBack(targets, targetKey, streams);
    if (targets.size === 0) this.teams.delete(teamId);
    const ready = this.members.get(stream)!;
    this.members.delete(stream);
    return ready;
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
