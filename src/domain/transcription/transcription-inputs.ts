/**
 * What transcribing a bot's recording needs from the bot's history: its recording and participants
 * artifacts where they are kept, the recorder's clock (when it started, its pauses) to put the
 * speaker timeline on the recording's time, and the provider's job a request already has.
 */
import type { BotEvent } from '../bot/bot-events';
import type { RecordingClock } from './speaker-timeline';

export interface KeptArtifact {
  readonly artifact_type: string;
  readonly key: string;
  readonly content_type: string;
  /** `bot_storage`: where the bot's storage puts it; `service`: a spilled copy the service holds */
  readonly held_by: 'bot_storage' | 'service';
}

export interface TranscriptionInputs {
  /** the last recording the bot stored (a raw fallback comes before the finished file) */
  readonly recording: KeptArtifact | null;
  readonly participants: KeptArtifact | null;
  /** null when the bot never recorded */
  readonly clock: RecordingClock | null;
  /** the bot's end: a speaking turn still open then ends there */
  readonly ended_at: string | null;
}

interface Pause {
  readonly start: string;
  readonly end: string | null;
}

export const transcriptionInputsOf = (events: readonly BotEvent[]): TranscriptionInputs => {
  const kept = new Map<string, KeptArtifact>();
  const recordings: string[] = [];
  let participants: string | null = null;
  let startedAt: string | null = null;
  const pauses: Pause[] = [];
  let endedAt: string | null = null;
  for (const event of events) {
    switch (event.type) {
      case 'ArtifactStored':
      case 'ArtifactSpilled': {
        const { artifact_type, key, content_type } = event.data;
        kept.set(key, { artifact_type, key, content_type, held_by: event.type === 'ArtifactStored' ? 'bot_storage' : 'service' });
        if (artifact_type === 'recording') recordings.push(key);
        if (artifact_type === 'participants') participants = key;
        break;
      }
      case 'ArtifactsExpired':
        event.data.keys.forEach((key) => kept.delete(key));
        break;
      case 'StatusChanged': {
        const { status, at } = event.data;
        if (status === 'in_call_recording') startedAt ??= at;
        const open = pauses[pauses.length - 1];
        if (status === 'recording_paused' && (open === undefined || open.end !== null)) pauses.push({ start: at, end: null });
        if (status === 'recording_resumed' && open !== undefined && open.end === null) pauses[pauses.length - 1] = { ...open, end: at };
        break;
      }
      case 'BotCompleted':
      case 'BotFailed':
        endedAt ??= event.data.at;
        break;
      default:
        break;
    }
  }
  const recording = [...recordings].reverse().map((key) => kept.get(key)).find((a) => a !== undefined) ?? null;
  return {
    recording,
    participants: participants === null ? null : kept.get(participants) ?? null,
    clock: startedAt === null ? null : { started_at: startedAt, pauses },
    ended_at: endedAt,
  };
};

/** The hosted provider's job recorded for a transcription request (an earlier owner's), or null: none yet. */
export const providerJobOf = (events: readonly BotEvent[], requestId: string): string | null =>
  events.find((e): e is Extract<BotEvent, { type: 'TranscriptionJobSubmitted' }> => e.type === 'TranscriptionJobSubmitted' && e.data.request_id === requestId)?.data.job_id ?? null;
