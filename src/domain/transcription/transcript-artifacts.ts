/**
 * The two transcript artifacts of a bot (docs/transcription.md), after Meeting BaaS's
 * `raw_transcription.json` and `output_transcription.json`.
 */
import type { DiarizedTranscript } from './transcript';

export const RAW_TRANSCRIPTION = { artifact_type: 'raw_transcription', key: 'raw_transcription.json' } as const;
export const TRANSCRIPTION = { artifact_type: 'transcription', key: 'output_transcription.json' } as const;

export interface TranscriptOrigin {
  readonly bot_id: string;
  readonly provider: string;
  readonly created_at: string;
}

/** The provider's output verbatim, with its job ids (none for the offline engine). */
export const rawTranscriptionDocument = (origin: TranscriptOrigin, jobIds: readonly string[], raw: unknown) => ({
  bot_id: origin.bot_id,
  provider: origin.provider,
  transcription_ids: jobIds,
  transcriptions: [raw],
  created_at: origin.created_at,
});

export const diarizedTranscriptDocument = (origin: TranscriptOrigin, result: DiarizedTranscript) => ({
  bot_id: origin.bot_id,
  provider: origin.provider,
  result,
  created_at: origin.created_at,
});
