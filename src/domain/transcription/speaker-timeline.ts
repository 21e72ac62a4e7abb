/**
 * The bot's speaker timeline (`participants.json` `speakers`, wall-clock ISO times) on the recording's
 * own clock: seconds from the first recorded sample, paused stretches left out (a paused recorder
 * records nothing, so the file's time stands still while the wall clock runs on).
 */
import { toMillis } from '../codec-helpers';
import { toMillisecond } from './transcript';

/** One speaking turn as the bot saw it (participants.json `speakers[]`). */
export interface SpeakerTurn {
  readonly name: string;
  readonly participant_id: string | null;
  readonly start: string;
  /** null: still speaking when the bot stopped looking */
  readonly end: string | null;
}

/** When the recorder ran, on the wall clock. */
export interface RecordingClock {
  /** the recorder's start (`in_call_recording`) */
  readonly started_at: string;
  /** `recording_paused` to `recording_resumed`; an open pause lasts to the end */
  readonly pauses?: readonly { readonly start: string; readonly end: string | null }[];
}

/** A turn in seconds of recording. */
export interface TimedTurn {
  readonly name: string;
  readonly participant_id: string | null;
  readonly start: number;
  readonly end: number;
}

/** Seconds of recording at a wall-clock instant: time before the start counts as 0, paused time not at all. */
export const recordingOffset = (clock: RecordingClock, instantMs: number): number => {
  const startMs = toMillis(clock.started_at);
  let paused = 0;
  for (const pause of clock.pauses ?? []) {
    const from = Math.max(toMillis(pause.start), startMs);
    const to = pause.end === null ? Infinity : toMillis(pause.end);
    if (instantMs <= from || to <= from) continue;
    paused += Math.min(instantMs, to) - from;
  }
  return Math.max(0, instantMs - startMs - paused) / 1000;
};

/**
 * The turns on the recording's clock, in order. A turn still open runs to `openEndMs` (the end of the
 * recording, or any later instant: nothing is recorded after it); turns that fall wholly before the
 * recording or inside a pause are left out.
 */
export const speakerTimeline = (turns: readonly SpeakerTurn[], clock: RecordingClock, openEndMs: number): TimedTurn[] =>
  turns
    .map((turn) => ({
      name: turn.name,
      participant_id: turn.participant_id,
      start: toMillisecond(recordingOffset(clock, toMillis(turn.start))),
      end: toMillisecond(recordingOffset(clock, turn.end === null ? openEndMs : toMillis(turn.end))),
    }))
    .filter((turn) => turn.end > turn.start)
    .sort((a, b) => a.start - b.start);
