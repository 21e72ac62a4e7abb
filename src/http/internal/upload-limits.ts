import { Transform, type TransformCallback } from 'node:stream';

export const MIB = 2 ** 20;

/** What a bot uploads, told apart by the keys the bot runtime gives them (bot-runtime: recorder, screenshots, finish-run). */
export type ArtifactKind = 'recording' | 'audio_chunk' | 'screenshot' | 'diagnostic' | 'chat_messages' | 'participants' | 'bot_log' | 'other';

export type ArtifactSizeLimits = Readonly<Record<ArtifactKind, number>>;

/**
 * The largest upload of each kind. A recording: 12 hours (the service's cap) of 1.5 Mbit/s video and
 * 128 kbit/s audio is about 8.8 GB, so 10 GiB. The rest are small by nature; a key of no known kind
 * gets the smallest.
 */
export const DEFAULT_ARTIFACT_SIZE_LIMITS: ArtifactSizeLimits = {
  recording: 10 * 1024 * MIB,
  audio_chunk: 32 * MIB,
  screenshot: 32 * MIB,
  diagnostic: 32 * MIB,
  chat_messages: 64 * MIB,
  participants: 64 * MIB,
  bot_log: 64 * MIB,
  other: 16 * MIB,
};

const KINDS = Object.keys(DEFAULT_ARTIFACT_SIZE_LIMITS) as ArtifactKind[];

export const artifactKindOfKey = (key: string): ArtifactKind => {
  if (/^recording\.[a-z0-9]+$/.test(key)) return 'recording';
  if (key.startsWith('audio_chunks/')) return 'audio_chunk';
  if (key.startsWith('screenshots/')) return 'screenshot';
  if (key.startsWith('diagnostics/')) return 'diagnostic';
  if (key === 'chat_messages.json') return 'chat_messages';
  if (key === 'participants.json') return 'participants';
  if (key === 'bot.log') return 'bot_log';
  return 'other';
};

/** `ARTIFACT_SIZE_LIMITS_MB=recording=2048,screenshot=8`: the kinds named take these limits (MiB), the others keep theirs. */
export const artifactSizeLimitsFrom = (value: string | undefined): Partial<ArtifactSizeLimits> | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  const limits: Partial<Record<ArtifactKind, number>> = {};
  for (const item of value.split(',')) {
    const [kind, mebibytes, ...rest] = item.split('=').map((s) => s.trim());
    const bytes = Number(mebibytes);
    if (!KINDS.includes(kind as ArtifactKind) || rest.length > 0 || mebibytes === '' || !Number.isFinite(bytes) || bytes <= 0) {
      throw new Error(`ARTIFACT_SIZE_LIMITS_MB must be <kind>=<MiB>,… with kinds ${KINDS.join(', ')}; got "${item}"`);
    }
    limits[kind as ArtifactKind] = Math.round(bytes * MIB);
  }
  return limits;
};

/** The service keeps this much of DATA_DIR free for its event log by default: uploads stop first. */
export const DEFAULT_MIN_FREE_DISK_BYTES = 1024 * MIB;

/** Why an upload stopped: it said or proved it was larger than its kind allows, or the disk ran low. */
export class UploadRefused extends Error {
  constructor(
    readonly reason: 'too_large' | 'disk_low',
    message: string,
  ) {
    super(message);
  }
}

/** Free space is looked at again after every this many bytes of one upload. */
const FREE_SPACE_RECHECK_BYTES = 64 * MIB;

/**
 * Passes an upload's bytes on while it stays within `maxBytes` and the disk keeps `minFree` free (asked
 * before the first byte and every 64 MiB); otherwise it fails, and the store drops what it had written.
 */
export const guardedUpload = (options: {
  readonly maxBytes: number;
  readonly tooLarge: () => string;
  /** null: the upload does not go to the local disk */
  readonly diskLow: (() => Promise<string | null>) | null;
}): Transform => {
  let received = 0;
  let checkedAt = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      received += chunk.length;
      if (received > options.maxBytes) return callback(new UploadRefused('too_large', options.tooLarge()));
      if (!options.diskLow || received - checkedAt < FREE_SPACE_RECHECK_BYTES) return callback(null, chunk);
      checkedAt = received;
      options.diskLow().then(
        (problem) => (problem ? callback(new UploadRefused('disk_low', problem)) : callback(null, chunk)),
        (err: Error) => callback(err),
      );
    },
  });
};
