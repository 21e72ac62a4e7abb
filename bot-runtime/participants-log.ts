/** The `participants.json` artifact: presence and speaking intervals, built from page snapshots. Pure (time comes in). */
import { isIgnoredName, type SeenParticipant } from './attendees';

export interface Interval {
  readonly start: string;
  readonly end: string | null;
}

export interface ParticipantRecord {
  readonly participant_id: string;
  readonly name: string;
  /** the bot itself */
  readonly is_bot: boolean;
  /** listed in ignored_participant_names */
  readonly ignored: boolean;
  /** join/leave times as seen by the bot; a participant can join several times */
  readonly presence: Interval[];
  readonly speaking: Interval[];
}

export interface ParticipantsArtifact {
  readonly participants: ParticipantRecord[];
  /** one entry per speaking turn, in order */
  readonly speakers: { readonly name: string; readonly participant_id: string | null; readonly start: string; readonly end: string | null }[];
}

interface Open {
  start: number;
  end: number | null;
}

interface Entry {
  id: string;
  name: string;
  presence: Open[];
  speaking: Open[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export class ParticipantsLog {
  private readonly entries = new Map<string, Entry>();
  private readonly turns: { name: string; id: string | null; start: number; end: number | null }[] = [];
  private selfId: string | null = null;

  constructor(private readonly ignored: readonly string[]) {}

  setSelf(id: string | null): void {
    this.selfId = id;
  }

  /** Records the participants and the active speaker (by display name, null when nobody speaks) seen at `now`. */
  update(now: number, present: readonly SeenParticipant[], activeSpeaker: string | null): void {
    const ids = new Set(present.map((p) => p.id));
    for (const p of present) {
      let e = this.entries.get(p.id);
      if (!e) {
        e = { id: p.id, name: p.name, presence: [], speaking: [] };
        this.entries.set(p.id, e);
      }
      e.name = p.name;
      const last = e.presence[e.presence.length - 1];
      if (!last || last.end !== null) e.presence.push({ start: now, end: null });
    }
    for (const e of this.entries.values()) {
      const last = e.presence[e.presence.length - 1];
      if (last && last.end === null && !ids.has(e.id)) last.end = now;
    }

    const speaker = activeSpeaker && activeSpeaker.trim() !== '' ? activeSpeaker : null;
    const turn = this.turns[this.turns.length - 1];
    const speaking = turn && turn.end === null ? turn : null;
    if (speaking && speaking.name !== speaker) this.closeTurn(speaking, now);
    if (speaker && (!speaking || speaking.name !== speaker)) {
      const who = present.find((p) => p.name === speaker) ?? null;
      const t = { name: speaker, id: who?.id ?? null, start: now, end: null };
      this.turns.push(t);
      if (who) this.entries.get(who.id)?.speaking.push({ start: now, end: null });
    }
  }

  private closeTurn(t: { id: string | null; end: number | null }, now: number): void {
    t.end = now;
    const e = t.id ? this.entries.get(t.id) : undefined;
    const open = e?.speaking[e.speaking.length - 1];
    if (open && open.end === null) open.end = now;
  }

  /** Closes every open interval (the bot left at `now`). */
  close(now: number): void {
    for (const e of this.entries.values()) {
      const last = e.presence[e.presence.length - 1];
      if (last && last.end === null) last.end = now;
    }
    const t = this.turns[this.turns.length - 1];
    if (t && t.end === null) this.closeTurn(t, now);
  }

  /** Who was there and who spoke, by name, the bot itself left out: the summary the end of the run reports. */
  summary(): { readonly participants: string[]; readonly speakers: string[] } {
    const names = [...this.entries.values()].filter((e) => e.id !== this.selfId).map((e) => e.name);
    const unique = (xs: string[]) => [...new Set(xs.filter((x) => x.trim() !== ''))];
    return { participants: unique(names), speakers: unique(this.turns.map((t) => t.name)) };
  }

  toArtifact(): ParticipantsArtifact {
    const intervals = (xs: Open[]): Interval[] => xs.map((x) => ({ start: iso(x.start), end: x.end === null ? null : iso(x.end) }));
    return {
      participants: [...this.entries.values()].map((e) => ({
        participant_id: e.id,
        name: e.name,
        is_bot: e.id === this.selfId,
        ignored: isIgnoredName(e.name, this.ignored),
        presence: intervals(e.presence),
        speaking: intervals(e.speaking),
      })),
      speakers: this.turns.map((t) => ({ name: t.name, participant_id: t.id, start: iso(t.start), end: t.end === null ? null : iso(t.end) })),
    };
  }
}
