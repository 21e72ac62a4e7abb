import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { joinAtProblem } from '../../domain/bot/schedule-timing';
import { platformOfMeetingUrl, type Platform } from '../../domain/meeting-url';
import { type ApiError, renamedInError, validationError } from '../api-error';
import { DEFAULT_TRANSCRIPTION_PROVIDER, MAX_TIMEOUT_SECONDS, RECORDING_MODES, TOKEN_URL_CONTRACT } from './bot-configs';
import { bool, checkLength, decodeWith, httpsUrl, int, jsonObject, leaf, nullable, oneOf, str, strictObject, textOrObject, unlessProblem, withDefault, wsUrl } from './codec-kit';
import { BotName, EntryMessage, meetingUrl } from './create-bot-request';
import { legacyUnavailableOptionRefusal } from './legacy-unavailable-options';
import { checkTranscriptionChoice, type TranscriptionChoice } from './transcription-choice';
import { tmGuestNameProblem } from './tm-guest-name';
import { explained } from './schema-notes';
import { TargetUrl } from './webhook-requests';

/**
 * The legacy creation request (`POST /bots`): the spec's legacy table, plus every field the official
 * client sends (`deduplication_key`, `automatic_leave.silence_timeout`, `start_time`, `streaming`,
 * `transcription_custom_parameters`, `reserved`; the legacy bot record carries them all). Field rules are
 * v2's where the field is the same (meeting_url, bot_name, entry_message, extra, timeouts in seconds).
 */

const seconds = (fallback: number) => withDefault(int(0, MAX_TIMEOUT_SECONDS), () => fallback);

/** `waiting_room_timeout` null: not given (600 s, or the legacy OBF reference's 200 s for a bot with an OBF source). */
const AutomaticLeave = strictObject('automatic_leave', {
  waiting_room_timeout: nullable(explained(int(0, MAX_TIMEOUT_SECONDS), { description: 'Seconds; not given: 600, or 200 for a vc bot with an OBF source.' })),
  noone_joined_timeout: seconds(600),
  silence_timeout: seconds(600),
});
type AutomaticLeave = t.TypeOf<typeof AutomaticLeave>;

const defaultAutomaticLeave = (): AutomaticLeave => ({ waiting_room_timeout: null, noone_joined_timeout: 600, silence_timeout: 600 });

const SpeechToTextObject = strictObject('speech_to_text', {
  provider: withDefault(str(1, 100), () => DEFAULT_TRANSCRIPTION_PROVIDER),
  api_key: nullable(str(1, 1024)),
});

const ONE_OBF_SOURCE = 'vc only; at most one of `vc_obf_token`, `vc_obf_token_url`, `vc_obf_token_user_id` (400 naming the second). With one, `waiting_room_timeout` defaults to 200 s.';
const SDK_PAIR = 'Given with the other or not at all: `SET_VC_ID_AND_PWD_TOGETHER` (400).';

/** The legacy vc fields, as POST /bots and a legacy calendar's `bot_param` take them. */
export const legacyVcFields = {
  vc_obf_token: nullable(explained(str(1, 8192), { description: `${ONE_OBF_SOURCE} An OBF token as it is, for the first join only (write-only).`, writeOnly: true })),
  vc_obf_token_url: nullable(explained(TargetUrl, { description: `${ONE_OBF_SOURCE} Where the service fetches the OBF token. ${TOKEN_URL_CONTRACT}` })),
  vc_obf_token_user_id: nullable(
    explained(str(1, 255), { description: `${ONE_OBF_SOURCE} The vc user id of an OAuth connection of the team (POST /vc_oauth_connections): its OBF token, fetched at each join.` }),
  ),
  vc_sdk_id: nullable(explained(str(1, 255), { description: `vc only: the bot's own Meeting SDK key, which signs its join. ${SDK_PAIR}` })),
  vc_sdk_pwd: nullable(explained(str(1, 1024), { description: `vc only: the secret of \`vc_sdk_id\` (write-only). ${SDK_PAIR}`, writeOnly: true })),
  /** the ZAK token URL (v2's vc_config.zak_token_url), as the official client and the calendar's bot_param name it */
  vc_access_token_url: nullable(
    explained(TargetUrl, { description: `vc only, never with an OBF source: where the service fetches a ZAK (the bot starts the meeting as its host). ${TOKEN_URL_CONTRACT}` }),
  ),
};

/** The provider's name alone: that provider, with its key from the team's settings. */
const ProviderName = leaf<t.TypeOf<typeof SpeechToTextObject>>(
  'speech_to_text_provider',
  (u) => E.map((provider: string) => ({ provider, api_key: null }))(typeof u === 'string' ? checkLength(u, 1, 100) : E.left('must be string')),
  { type: 'string', minLength: 1, maxLength: 100, description: 'The provider\'s name alone, as `{"provider": <name>}`.' },
);

/** `{provider?, api_key?}` (Default unless named), or the provider's name alone (the official client sends either). */
export const SpeechToText = textOrObject('speech_to_text', ProviderName, SpeechToTextObject);

/** The legacy form of a streaming frequency, as the calendar `bot_param` writes it too. */
export const LEGACY_AUDIO_FREQUENCIES = ['16khz', '24khz', '32khz', '48khz'] as const;
export type LegacyAudioFrequency = (typeof LEGACY_AUDIO_FREQUENCIES)[number];

/** Meeting BaaS's `streaming`: the sockets the bot streams the meeting's audio to and plays back from. */
const Streaming = strictObject(
  'streaming',
  {
    input: nullable(wsUrl),
    output: nullable(wsUrl),
    audio_frequency: nullable(oneOf(LEGACY_AUDIO_FREQUENCIES)),
  },
  "The sockets the bot streams the meeting's audio to (`input`) and plays back from (`output`); `audio_frequency` (16khz unless said) needs one of them.",
);

/** Unix seconds (the official client's `start_time`), a whole or fractional number. */
const UnixSeconds = leaf<number>(
  'unix_seconds',
  (u) => (typeof u === 'number' && Number.isFinite(u) && u >= 0 ? E.right(u) : E.left('must be a number of seconds since 1970-01-01T00:00:00Z, >= 0')),
  {
    type: 'number',
    minimum: 0,
    description:
      'When the bot joins, in seconds since 1970-01-01T00:00:00Z: a time ahead of now makes it a scheduled bot (at most a year ahead, ' +
      'within the team\'s limit of waiting bots: 409 `FST_ERR_TEAM_LIMIT_REACHED`); not ahead of now, it joins at once.',
  },
);

const bodyCodec = (sandboxHosts: boolean) =>
  strictObject('LegacyCreateBotRequest', {
    meeting_url: meetingUrl(sandboxHosts),
    bot_name: BotName,
    recording_mode: withDefault(oneOf(RECORDING_MODES), () => 'speaker_view' as const),
    bot_image: nullable(httpsUrl),
    entry_message: nullable(EntryMessage),
    speech_to_text: nullable(SpeechToText),
    automatic_leave: withDefault(AutomaticLeave, defaultAutomaticLeave),
    webhook_url: nullable(TargetUrl),
    extra: nullable(jsonObject),
    ...legacyVcFields,
    deduplication_key: nullable(str(1, 255)),
    start_time: nullable(UnixSeconds),
    streaming: nullable(Streaming),
    transcription_custom_parameters: nullable(
      explained(jsonObject, { description: "The transcription provider's custom parameters, checked by that provider; needs `speech_to_text`." }),
    ),
    /** deprecated upstream in favour of start_time, and of no effect there: accepted, of no effect here */
    reserved: nullable(explained(bool, { description: 'Accepted and of no effect (deprecated in favour of `start_time`).' })),
  });

export type LegacyCreateBotRequest = Readonly<t.TypeOf<ReturnType<typeof bodyCodec>> & { platform: Platform }>;

const codecs = { sandbox: bodyCodec(true), production: bodyCodec(false) };

/** The request as the OpenAPI document describes it. */
export const LegacyCreateBotRequestCodec = codecs.production;

export const LEGACY_OBF_SOURCES = ['vc_obf_token', 'vc_obf_token_url', 'vc_obf_token_user_id'] as const;
const VC_FIELDS = [...LEGACY_OBF_SOURCES, 'vc_sdk_id', 'vc_sdk_pwd', 'vc_access_token_url'] as const;

const crossFieldProblem = (r: LegacyCreateBotRequest): ApiError | null => {
  if (r.platform === 'tm') {
    const problem = tmGuestNameProblem(r.bot_name);
    if (problem !== null) return validationError('body/bot_name', problem);
  }
  const vcField = VC_FIELDS.find((field) => r[field] !== null);
  if (vcField !== undefined && r.platform !== 'vc') {
    return validationError(`body/${vcField}`, `is only allowed for vc meetings (meeting_url is a ${r.platform} meeting)`);
  }
  // The spec's own code for it, after the path, as INVALID_MEETING_URL is for meeting_url.
  if ((r.vc_sdk_id === null) !== (r.vc_sdk_pwd === null)) {
    const missing = r.vc_sdk_id === null ? 'vc_sdk_id' : 'vc_sdk_pwd';
    return validationError(`body/${missing}`, 'SET_VC_ID_AND_PWD_TOGETHER: vc_sdk_id and vc_sdk_pwd must be given together');
  }
  if (r.streaming !== null && r.streaming.input === null && r.streaming.output === null && r.streaming.audio_frequency !== null) {
    return validationError('body/streaming/audio_frequency', 'needs streaming.input or streaming.output');
  }
  if (r.transcription_custom_parameters !== null && r.speech_to_text === null) {
    return validationError('body/transcription_custom_parameters', 'needs speech_to_text (the provider they are for)');
  }
  const sources = LEGACY_OBF_SOURCES.filter((field) => r[field] !== null);
  if (sources.length > 1) return validationError(`body/${sources[1]}`, `must NOT be given with ${sources[0]} (one OBF token source per bot)`);
  if (sources.length === 1 && r.vc_access_token_url !== null) {
    return validationError('body/vc_access_token_url', `must NOT be given with ${sources[0]}: the platform joins with an OBF token or a ZAK, never both`);
  }
  return null;
};

/** Every rule of the legacy request's shape and its cross-field rules. */
export const decodeLegacyCreateBotRequestShape = (body: unknown, options: { sandboxHosts: boolean }): E.Either<ApiError, LegacyCreateBotRequest> => {
  const decoded = decodeWith(options.sandboxHosts ? codecs.sandbox : codecs.production, 'body', body);
  if (E.isLeft(decoded)) return decoded;
  const platform = platformOfMeetingUrl(decoded.right.meeting_url, options);
  if (platform === null) return E.left(validationError('body/meeting_url', 'INVALID_MEETING_URL: host is not a meeting host'));
  return unlessProblem(crossFieldProblem)(E.right({ ...decoded.right, platform }));
};

/**
 * When a legacy bot joins: `start_time` ahead of now makes it a scheduled bot for that time (at most a year
 * ahead, as v2's join_at); absent, or not after now, it joins at once (null).
 */
export const legacyJoinAt = (startTime: number | null, now: string): E.Either<ApiError, string | null> => {
  const joinAtMs = startTime === null ? null : Math.round(startTime * 1000);
  if (joinAtMs === null || joinAtMs <= Date.parse(now)) return E.right(null);
  const joinAt = new Date(joinAtMs).toISOString();
  const problem = joinAtProblem(joinAt, now);
  return problem === null ? E.right(joinAt) : E.left(validationError('body/start_time', problem));
};

/** A legacy creation request the service can carry out: well formed, and asking only for what it delivers. */
export const decodeLegacyCreateBotRequest = (body: unknown, options: { sandboxHosts: boolean }): E.Either<ApiError, LegacyCreateBotRequest> =>
  E.chain((request: LegacyCreateBotRequest) => {
    if (request.speech_to_text === null) return E.right(request);
    // The provider as the service names it, once it is known to take the key and parameters given.
    const choice = checkTranscriptionChoice('body/speech_to_text', { ...request.speech_to_text, custom_params: request.transcription_custom_parameters });
    return E.bimap(
      (err: ApiError) => renamedInError(err, 'body/speech_to_text/custom_params', 'body/transcription_custom_parameters'),
      ({ provider, api_key }: TranscriptionChoice): LegacyCreateBotRequest => ({ ...request, speech_to_text: { provider, api_key } }),
    )(choice);
  })(unlessProblem(legacyUnavailableOptionRefusal)(decodeLegacyCreateBotRequestShape(body, options)));
