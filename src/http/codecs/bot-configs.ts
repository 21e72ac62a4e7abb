import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { arrayOf, email, httpsUrl, int, jsonObject, leaf, nullable, oneOf, str, strictObject, withDefault, wsUrl } from './codec-kit';
import { normaliseUuid, UUID_SCHEMA } from './path-uuid';
import { described, explained, schemaNoteOf } from './schema-notes';
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

/** Token URLs follow the webhooks' target policy (https and public addresses in production), checked at creation and at join time. */
/** What a token URL must answer, in the words of the spec (docs/decisions.md, issue 21). */
export const TOKEN_URL_CONTRACT =
  'Called at every join (and every retry) with GET, `bot_uuid` and `extra` (the JSON text of the bot\'s `extra`) added to its query; ' +
  'a 2xx text/plain answer of one token within 5 s, no redirect followed.';

export const VcConfig = strictObject(
  'vc_config',
  {
    credential_id: nullable(explained(uuid, { description: 'An OAuth connection of the team (POST /v2/vc-credentials): its user\'s OBF token, fetched by the service at each join.' })),
    credential_user_id: nullable(explained(str(1, 255), { description: 'The vc user id of an OAuth connection of the team: that user\'s OBF token, fetched by the service at each join.' })),
    obf_token: nullable(explained(str(1, 8192), { description: 'An OBF token as it is: used for the first join only (write-only).', writeOnly: true })),
    obf_token_url: nullable(explained(TargetUrl, { description: `Where the service fetches the OBF token. ${TOKEN_URL_CONTRACT}` })),
    zak_token_url: nullable(explained(TargetUrl, { description: `Where the service fetches a ZAK: the bot starts the meeting as its host. ${TOKEN_URL_CONTRACT}` })),
  },
  'vc meetings only: join with the platform\'s Meeting SDK, signed by the team\'s stored SDK credentials, the OAuth app of the ' +
    'connection, or the service\'s own. At most one OBF source (`credential_id`, `credential_user_id`, `obf_token`, `obf_token_url`), and ' +
    'never one with `zak_token_url` (the platform refuses a join carrying both): 400 naming the field. A credential or user the team has ' +
    'no connection for is refused at creation; one deleted or refused later fails the join with `VC_OBF_TOKEN_ERROR` ' +
    '(`VC_ACCESS_TOKEN_ERROR` for the ZAK, `CANNOT_GET_JWT_TOKEN` when nothing can sign it).',
);
export type VcConfig = t.TypeOf<typeof VcConfig>;

/**
 * The four ways of supplying an OBF token exclude each other, and the ZAK token URL excludes them all: the
 * platform's Meeting SDK refuses a join that carries both an OBF token and a ZAK (its error 3636).
 */
export const OBF_SOURCES = ['credential_id', 'credential_user_id', 'obf_token', 'obf_token_url'] as const;

export const RECORDING_MODES = ['speaker_view', 'audio_only', 'gallery_view'] as const;

export const IgnoredParticipantNames = arrayOf(str(1, 255), 0, 100);
