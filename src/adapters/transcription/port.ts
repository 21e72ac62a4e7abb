import type { RecognizedWord } from '../../domain/transcription/transcript';

/** The providers' names as `transcription_config.provider` and legacy `speech_to_text.provider` spell them. */
export const providerNames = ['Default', 'Gladia', 'Deepgram', 'AssemblyAI'] as const;
export type ProviderName = (typeof providerNames)[number];

/** Where the audio is: a file on this machine, a signed URL a hosted provider can fetch, or both. */
export interface AudioSource {
  readonly path?: string;
  readonly url?: string;
}

/** What a transcription asks beyond the audio: the bot's `transcription_config`. */
export interface TranscriptionOptions {
  /** a language code such as `en`; null or absent: the provider's default or detection */
  readonly language?: string | null;
  /** forwarded into the provider's own request, under ours (fields we must set win) */
  readonly customParams?: Readonly<Record<string, unknown>> | null;
  /** the team's key for a hosted provider */
  readonly apiKey?: string | null;
}

export interface TranscriptionRequest extends TranscriptionOptions {
  readonly audio: AudioSource;
  readonly signal?: AbortSignal;
  /**
   * A provider that runs jobs (Gladia, AssemblyAI): the job this request already has there, created by an
   * earlier owner of the request; it is waited for, never created again. Providers that answer in the same
   * request (Deepgram, the offline engine) have no job to come back to and ignore it.
   */
  readonly job?: string | null;
  /** Told the id of a job the provider just accepted, before it is waited for: the caller records it. */
  readonly onJobCreated?: (jobId: string) => Promise<void>;
}

/** One provider's answer: verbatim, and normalised to our units. */
export interface ProviderTranscript {
  readonly provider: ProviderName;
  /** the provider's own ids of the work (`transcription_ids`); none for the offline engine */
  readonly jobIds: readonly string[];
  /** the provider's output as it came: the raw transcript artifact */
  readonly raw: unknown;
  /** in time order, seconds from the start of the audio */
  readonly words: readonly RecognizedWord[];
  /** what the provider says it heard, else what was asked for */
  readonly language: string | null;
  /** seconds of audio, where known */
  readonly duration: number | null;
}

export interface TranscriptionProvider {
  readonly name: ProviderName;
  /** Why this provider cannot take these options (a message naming the field), or null: checked before any work. */
  problemWith(options: TranscriptionOptions): string | null;
  /** Rejects with TranscriptionFailed, never anything else. */
  transcribe(request: TranscriptionRequest): Promise<ProviderTranscript>;
}

/**
 * A transcription that did not give a transcript. The message is safe to show to the team (it never
 * holds a key) and says what the provider said.
 */
export class TranscriptionFailed extends Error {
  constructor(
    readonly provider: ProviderName,
    message: string,
    /** the provider's HTTP status or its job's error code, where there is one */
    readonly status: number | null = null,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'TranscriptionFailed';
  }
}
