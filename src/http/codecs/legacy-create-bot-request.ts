import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { platformOfMeetingUrl, type Platform } from '../../domain/meeting-url';
import { type ApiError, validationError } from '../api-error';
import { DEFAULT_TRANSCRIPTION_PROVIDER, MAX_TIMEOUT_SECONDS, RECORDING_MODES, TOKEN_URL_CONTRACT } from './bot-configs';
import { decodeWith, httpsUrl, int, jsonObject, nullable, oneOf, str, strictObject, unlessProblem, withDefault } from './codec-kit';
import { BotName, EntryMessage, meetingUrl } from './create-bot-request';
import { legacyUnavailableOptionRefusal } from './legacy-unavailable-options';
import { checkTranscriptionChoice, type TranscriptionChoice } from './transcription-choice';
import { tmGuestNameProblem } from './tm-guest-name';
import { explained } from './schema-notes';
import { TargetUrl } from './webhook-requests';

/**
 * The legacy creation request (`POST /bots`): the spec's legacy table, plus `deduplication_key` and
 * `automatic_leave.silence_timeout` (both in the legacy bot record). Field rules are v2's where the
 * field is the same (meeting_url, bot_name, entry_message, extra, timeouts in seconds).
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

const SpeechToText = strictObject('speech_to_text', {
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
};

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
  });

export type LegacyCreateBotRequest = Readonly<t.TypeOf<ReturnType<typeof bodyCodec>> & { platform: Platform }>;

const codecs = { sandbox: bodyCodec(true), production: bodyCodec(false) };

/** The request as the OpenAPI document describes it. */
export const LegacyCreateBotRequestCodec = codecs.production;

export const LEGACY_OBF_SOURCES = ['vc_obf_token', 'vc_obf_token_url', 'vc_obf_token_user_id'] as const;
const VC_FIELDS = [...LEGACY_OBF_SOURCES, 'vc_sdk_id', 'vc_sdk_pwd'] as const;

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
  const sources = LEGACY_OBF_SOURCES.filter((field) => r[field] !== null);
  if (sources.length > 1) return validationError(`body/${sources[1]}`, `must NOT be given with ${sources[0]} (one OBF token source per bot)`);
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

/** A legacy creation request the service can carry out: well formed, and asking only for what it delivers. */
export const decodeLegacyCreateBotRequest = (body: unknown, options: { sandboxHosts: boolean }): E.Either<ApiError, LegacyCreateBotRequest> =>
  E.chain((request: LegacyCreateBotRequest) => {
    if (request.speech_to_text === null) return E.right(request);
    // The provider as the service names it, once it is known to take the key given.
    const choice = checkTranscriptionChoice('body/speech_to_text', { ...request.speech_to_text, custom_params: null });
    return E.map(({ provider, api_key }: TranscriptionChoice): LegacyCreateBotRequest => ({ ...request, speech_to_text: { provider, api_key } }))(choice);
  })(unlessProblem(legacyUnavailableOptionRefusal)(decodeLegacyCreateBotRequestShape(body, options)));
