import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { arrayOf, email, httpsUrl, int, jsonObject, leaf, nullable, oneOf, str, strictObject, withDefault, wsUrl } from './codec-kit';
import { normaliseUuid, UUID_SCHEMA } from './path-uuid';
import { described, schemaNoteOf } from './schema-notes';
import { TargetUrl } from './webhook-requests';

/** The nested objects of the v2 creation request, with the inner names DESIGN.md decided. */

export const uuid = leaf<string>('uuid', (u) => {
  const id = normaliseUuid(u);
  return id === null ? E.left('must match format "uuid"') : E.right(id);
}, UUID_SCHEMA);

/** 12 hours in seconds: the spec's cap on recording, used as the ceiling of every timeout too. */
export const MAX_TIMEOUT_SECONDS = 43_200;

const seconds = (fallback: number) => withDefault(int(0, MAX_TIMEOUT_SECONDS), () => fallback);

export const TimeoutConfig = strictObject('timeout_config', {
  grace_period: seconds(0),
  no_one_joined_timeout: seconds(600),
  silence_timeout: seconds(600),
  waiting_room_timeout: seconds(600),
  max_recording_duration: nullable(int(1, MAX_TIMEOUT_SECONDS)),
});
export type TimeoutConfig = t.TypeOf<typeof TimeoutConfig>;

export const defaultTimeoutConfig = (): TimeoutConfig => ({
  grace_period: 0,
  no_one_joined_timeout: 600,
  silence_timeout: 600,
  waiting_room_timeout: 600,
  max_recording_duration: null,
});

export const MAX_BOT_IMAGES = 5;

/** One URL or 1 to 5 of them; always an array afterwards so consumers handle a single shape. */
const images = arrayOf(httpsUrl, 1, MAX_BOT_IMAGES);
export const BotImage = described(
  new t.Type<string[], unknown, unknown>(
    'bot_image',
    images.is,
    (u, c) => (typeof u === 'string' ? E.map((url: string) => [url])(httpsUrl.validate(u, c)) : images.validate(u, c)),
    t.identity,
  ),
  () => {
    const url = schemaNoteOf(httpsUrl)!;
    return { anyOf: [url, { type: 'array', items: url, minItems: 1, maxItems: MAX_BOT_IMAGES }] };
  },
);

export const BotImageConfig = strictObject('bot_image_config', {
  mode: withDefault(oneOf(['cycle', 'static'] as const), () => 'cycle' as const),
  interval_seconds: withDefault(int(1, 3600), () => 10),
});

/** http or https here; which one a service accepts, and to which addresses, is its webhook target policy. */
export const CallbackConfig = strictObject('callback_config', {
  url: TargetUrl,
  method: withDefault(oneOf(['POST', 'PUT'] as const), () => 'POST' as const),
  secret: nullable(str(1, 256)),
});

/** `mt_config` and `tm_config` share their fields (spec table). */
export const LoginConfig = strictObject('login_config', {
  credential_id: nullable(uuid),
  email_group: nullable(email),
  fallback: withDefault(oneOf(['fail', 'anonymous'] as const), () => 'fail' as const),
});

export const AUDIO_FREQUENCIES = [16000, 24000, 32000, 48000] as const;

export const StreamingConfig = strictObject('streaming_config', {
  input_url: nullable(wsUrl),
  output_url: nullable(wsUrl),
  audio_frequency: withDefault(oneOf(AUDIO_FREQUENCIES), () => 16000 as const),
});

/** `Default` is the spec's (legacy) name for the service's own provider. */
export const DEFAULT_TRANSCRIPTION_PROVIDER = 'Default';

export const TranscriptionConfig = strictObject('transcription_config', {
  provider: withDefault(str(1, 100), () => DEFAULT_TRANSCRIPTION_PROVIDER),
  api_key: nullable(str(1, 1024)),
  custom_params: nullable(jsonObject),
});

export const VcConfig = strictObject('vc_config', {
  credential_id: nullable(uuid),
  credential_user_id: nullable(str(1, 255)),
  obf_token: nullable(str(1, 8192)),
  obf_token_url: nullable(httpsUrl),
  zak_token_url: nullable(httpsUrl),
});
export type VcConfig = t.TypeOf<typeof VcConfig>;

/** The four ways of supplying an OBF token exclude each other; the ZAK token URL combines with any. */
export const OBF_SOURCES = ['credential_id', 'credential_user_id', 'obf_token', 'obf_token_url'] as const;

export const RECORDING_MODES = ['speaker_view', 'audio_only', 'gallery_view'] as const;

export const IgnoredParticipantNames = arrayOf(str(1, 255), 0, 100);
