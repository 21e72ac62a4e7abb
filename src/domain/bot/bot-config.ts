import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { IsoInstant, nullableField, Sealed, withDecodeDefault } from '../codec-helpers';
import { StorageSettings } from '../storage/storage-events';
import { upcastRequestShapedConfig } from './bot-config-upcast';
import { VcJoinCodec } from './vc-join';

/**
 * What a bot is asked to do, as the domain owns it: the v2 and legacy HTTP codecs map their requests into
 * this, and everything downstream (the dispatcher's job, charging, delivery) reads only this. Secrets are
 * sealed before they get here.
 *
 * Versioned: `version` changes when a field changes meaning. A field added later decodes with its default
 * from events written before it (withDecodeDefault); an older shape is upcast on read (bot-config-upcast.ts).
 */

export const RecordingMode = t.keyof({ speaker_view: null, audio_only: null, gallery_view: null });
export type RecordingMode = t.TypeOf<typeof RecordingMode>;

/** Seconds; the spec's automatic-leave settings. */
export const Timeouts = t.type({
  grace_period: t.number,
  no_one_joined_timeout: t.number,
  silence_timeout: t.number,
  waiting_room_timeout: t.number,
  max_recording_duration: t.union([t.number, t.null]),
});
export type Timeouts = t.TypeOf<typeof Timeouts>;

export const defaultTimeouts = (): Timeouts => ({
  grace_period: 0,
  no_one_joined_timeout: 600,
  silence_timeout: 600,
  waiting_room_timeout: 600,
  max_recording_duration: null,
});

const BotImages = t.type({ urls: t.array(t.string), mode: t.keyof({ cycle: null, static: null }), interval_seconds: t.number });

/** The per-bot callback: only the final events of this bot, to this URL. */
export const Callback = t.type({ url: t.string, method: t.keyof({ POST: null, PUT: null }), secret: t.union([Sealed, t.null]) });
export type Callback = t.TypeOf<typeof Callback>;

const Streaming = t.type({
  input_url: t.union([t.string, t.null]),
  output_url: t.union([t.string, t.null]),
  audio_frequency: t.number,
});

const Transcription = t.type({
  provider: t.string,
  api_key: t.union([Sealed, t.null]),
  custom_params: t.union([t.UnknownRecord, t.null]),
});

/** tm_config / mt_config: which stored login signs the bot in (for the bot's own platform). */
const Login = t.type({
  credential_id: t.union([t.string, t.null]),
  email_group: t.union([t.string, t.null]),
  fallback: t.keyof({ fail: null, anonymous: null }),
});

/**
 * Where the bot's artifacts go, fixed at creation so that a later storage change never moves them: the
 * service's own store, or the team's storage configuration of that moment, copied whole (secrets sealed),
 * so that the bot's artifacts stay reachable after the configuration is replaced or deleted.
 */
const Storage = t.union([
  t.type({ kind: t.literal('service') }),
  /** `configured_at`: when that version of the configuration was put (a replacement keeps the id) */
  t.type({ kind: t.literal('customer'), storage_config_id: t.string, configured_at: IsoInstant, settings: StorageSettings }),
]);
export type BotStorage = t.TypeOf<typeof Storage>;

/** The spec leaves retention to us: 7 days unless the team sets another (admin API). */
export const DEFAULT_RETENTION_DAYS = 7;

const BotConfigV1 = t.type({
  version: t.literal(1),
  /** which API created the bot: it decides the shape of the bot's webhook events */
  api: withDecodeDefault(t.keyof({ v2: null, legacy: null }), () => 'v2' as const),
  recording_mode: RecordingMode,
  timeouts: Timeouts,
  entry_message: t.union([t.string, t.null]),
  ignored_participant_names: t.array(t.string),
  allow_multiple_bots: t.boolean,
  deduplication_key: nullableField(t.string),
  bot_image: nullableField(BotImages),
  callback: nullableField(Callback),
  /** a legacy bot's own webhook URL (legacy events go there instead of the team's endpoints) */
  webhook_url: nullableField(t.string),
  streaming: nullableField(Streaming),
  transcription: nullableField(Transcription),
  login: nullableField(Login),
  /** vc only: the OBF token's source, the ZAK token URL and the caller's own SDK credentials (vc-join.ts) */
  vc: nullableField(VcJoinCodec),
  storage: withDecodeDefault(Storage, () => ({ kind: 'service' as const })),
  /** days the bot's artifacts are kept after it ends: the team's setting when the bot was created */
  retention_days: withDecodeDefault(t.number, () => DEFAULT_RETENTION_DAYS),
});
export type BotConfig = t.TypeOf<typeof BotConfigV1>;

/** What a creation request decides; the team's settings (storage, retention) are added when the bot is created. */
export type RequestedBotConfig = Omit<BotConfig, 'storage' | 'retention_days'>;
/** The team's settings a bot gets when it is created (for a scheduled bot: when it is queued at its time). */
export type TeamSettingsOfBot = Pick<BotConfig, 'storage' | 'retention_days'>;

const { storage: _storage, retention_days: _retention, ...requestedProps } = BotConfigV1.props;
/**
 * What a scheduled bot keeps until its time: the request's part of the config. The team's settings are
 * fixed into it when it is queued, as for a bot created then.
 */
export const RequestedBotConfigCodec: t.Type<RequestedBotConfig, unknown, unknown> = t.type(requestedProps);

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * Decodes a stored config of any version into the current one. Before BotConfig existed, BotCreated kept
 * the whole validated v2 request (no `version`): that shape is upcast.
 */
export const BotConfigCodec = new t.Type<BotConfig, unknown, unknown>(
  'BotConfig',
  BotConfigV1.is,
  (u, c) => {
    if (!isObject(u)) return t.failure(u, c, 'a bot configuration object');
    if (u.version === undefined) return BotConfigV1.validate(upcastRequestShapedConfig(u), c);
    return BotConfigV1.validate(u, c);
  },
  t.identity,
);

/** A config with every option at its default: what the smallest creation request asks for. */
export const defaultBotConfig = (): BotConfig => {
  const decoded = BotConfigV1.decode({
    version: 1,
    recording_mode: 'speaker_view',
    timeouts: defaultTimeouts(),
    entry_message: null,
    ignored_participant_names: [],
    allow_multiple_bots: true,
  });
  if (E.isLeft(decoded)) throw new Error('the default bot configuration does not decode');
  return decoded.right;
};
