/**
 * Simulated participants speaking: an utterance (its audio already made) that every page in the call
 * plays and acknowledges. Rules over the meeting's state (meeting-state.ts), no I/O.
 */
import { log, notEnded, SandboxError, simulated, type Meeting, type Utterance } from './meeting-state';

/** A simulated participant starts speaking (its audio is already made); pages play it. */
export function startUtterance(
  meeting: Meeting,
  participantId: string,
  speech: { text: string; audio_url: string; duration_ms: number },
  now: number,
): Utterance {
  const p = simulated(meeting, participantId);
  notEnded(meeting);
  if (p.state !== 'in_call') throw new SandboxError(409, `only a participant in the call can speak (state: ${p.state})`);
  pruneUtterances(meeting, now);
  const u: Utterance = { seq: meeting.next_seq++, participant_id: p.participant_id, name: p.name, ...speech, started_at: now, acks: new Set() };
  meeting.utterances.push(u);
  log(meeting, now, 'speak', p.participant_id, speech.text);
  return u;
}

/** Keeps utterances that are playing or ended less than `keepMs` ago. */
export function pruneUtterances(meeting: Meeting, now: number, keepMs = 5000): void {
  meeting.utterances = meeting.utterances.filter((u) => now < u.started_at + u.duration_ms + keepMs);
}

/** Browser participants in the call that have not yet acknowledged the utterance. */
export function pendingListeners(meeting: Meeting, u: Utterance): string[] {
  return [...meeting.participants.values()]
    .filter((p) => p.kind === 'browser' && p.state === 'in_call' && !u.acks.has(p.participant_id))
    .map((p) => p.participant_id);
}
