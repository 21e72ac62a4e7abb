import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { platformOfMeetingUrl, type Platform } from '../../domain/meeting-url';
import { type ApiError, validationError } from '../api-error';
import {
  BotImage, BotImageConfig, CallbackConfig, IgnoredParticipantNames, LoginConfig, OBF_SOURCES, RECORDING_MODES,
  StreamingConfig, TimeoutConfig, TranscriptionConfig, VcConfig, DEFAULT_TRANSCRIPTION_PROVIDER, defaultTimeoutConfig,
} from './bot-configs';
import { bool, checkLength, decodeWith, jsonObject, leaf, lengthOf, nullable, oneOf, strictObject, unlessProblem, withDefault } from './codec-kit';
import { tmGuestNameProblem } from './tm-guest-name';
import { checkTranscriptionChoice, type TranscriptionChoice } from './transcription-choice';
import { unavailableOptionRefusal } from './unavailable-options';

export const MAX_BOT_NAME_LENGTH = 255;
export const MAX_ENTRY_MESSAGE_LENGTH = 4096;
const MAX_MEETING_URL_LENGTH = 2048;

/**
 * Every meeting_url failure says INVALID_MEETING_URL, the spec's error code for it, so a client that
 * matches on the code finds it here as well as in a bot's `error_code`.
 */
export const meetingUrl = (sandboxHosts: boolean) =>
  leaf<string>('meeting_url', (u) => {
    const invalid = (why: string) => E.left(`INVALID_MEETING_URL: ${why}`);
    if (typeof u !== 'string') return invalid('must be string');
    const url = u.trim();
    if (lengthOf(url) > MAX_MEETING_URL_LENGTH) return invalid(`must NOT have more than ${MAX_MEETING_URL_LENGTH} characters`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return invalid('must be a valid URI');
    }
    if (parsed.protocol !== 'https:') return invalid('must be an https URL');
    // `https://zoom.us@evil.example/` shows a trusted name and goes elsewhere: refused outright.
    if (parsed.username !== '' || parsed.password !== '') return invalid('must NOT contain user info');
    if (platformOfMeetingUrl(url, { sandboxHosts }) === null) return invalid(`host ${parsed.hostname} is not a vc, tm or mt meeting host`);
    if (parsed.pathname === '/' && parsed.search === '') return invalid('must name a meeting, not only the host');
    return E.right(url);
  }, {
    type: 'string',
    format: 'uri',
    maxLength: MAX_MEETING_URL_LENGTH,
    pattern: '^[Hh][Tt][Tt][Pp][Ss]://',
    description:
      'An https link to a meeting: vc (Zoom), tm (Microsoft Teams) or mt (Google Meet), with no user info, naming a meeting ' +
      '(not only the host). The platform is read from the host. Refused with INVALID_MEETING_URL in the message.',
    examples: ['https://meet.google.com/abc-defg-hij'],
  });

/** NFC so that a decomposed "Zoë" is the same name (and passes the same tm rules) as a composed one. */
export const BotName = leaf<string>('bot_name', (u) => {
  if (typeof u !== 'string') return E.left('must be string');
  const name = u.normalize('NFC');
  if (name.length > 0 && name.trim() === '') return E.left('must NOT be whitespace only');
  return checkLength(name, 1, MAX_BOT_NAME_LENGTH);
}, {
  type: 'string',
  minLength: 1,
  maxLength: MAX_BOT_NAME_LENGTH,
  description:
    'Not whitespace only; compared in Unicode NFC. For tm meetings at most 50 characters: letters, digits, spaces and \' ’ . _ @ - · ・, ' +
    'no consecutive spaces or periods, not starting or ending with a period.',
  examples: ['Notetaker'],
});

/** Nothing can be posted for an empty or blank message, so it reads as "no entry message". */
export const EntryMessage = leaf<string | null>('entry_message', (u) => {
  if (typeof u !== 'string') return E.left('must be string');
  return E.map((s: string) => (s.trim() === '' ? null : s))(checkLength(u, 0, MAX_ENTRY_MESSAGE_LENGTH));
}, { type: 'string', maxLength: MAX_ENTRY_MESSAGE_LENGTH, description: 'Posted in the meeting chat once the bot is in; blank means none.' });

const bodyCodec = (sandboxHosts: boolean) =>
  strictObject('CreateBotRequest', {
    meeting_url: meetingUrl(sandboxHosts),
    bot_name: BotName,
    allow_multiple_bots: withDefault(bool, () => true),
    bot_image: withDefault(BotImage, (): string[] => []),
    bot_image_config: nullable(BotImageConfig),
    callback_enabled: withDefault(bool, () => false),
    callback_config: nullable(CallbackConfig),
    entry_message: nullable(EntryMessage),
    extra: nullable(jsonObject),
    ignored_participant_names: withDefault(IgnoredParticipantNames, (): string[] => []),
    mt_config: nullable(LoginConfig),
    tm_config: nullable(LoginConfig),
    timeout_config: withDefault(TimeoutConfig, defaultTimeoutConfig),
    recording_mode: withDefault(oneOf(RECORDING_MODES), () => 'speaker_view' as const),
    streaming_enabled: withDefault(bool, () => false),
    streaming_config: nullable(StreamingConfig),
    transcription_enabled: withDefault(bool, () => false),
    transcription_config: nullable(TranscriptionConfig),
    vc_config: nullable(VcConfig),
  });

type DecodedBody = t.TypeOf<ReturnType<typeof bodyCodec>>;

/** The validated request with every default filled in and the platform its meeting_url belongs to. */
export type CreateBotRequest = Readonly<DecodedBody & { platform: Platform }>;

// Built once per mode: the codec is a pure value, so requests share it.
const codecs = { sandbox: bodyCodec(true), production: bodyCodec(false) };

/** The request as the OpenAPI document describes it (a production service: no sandbox hosts). */
export const CreateBotRequestCodec = codecs.production;

/** Rules that relate two fields, checked once each field is valid on its own. */
const crossFieldProblem = (r: CreateBotRequest): ApiError | null => {
  const onlyFor = (field: string, platform: Platform) =>
    validationError(`body/${field}`, `is only allowed for ${platform} meetings (meeting_url is a ${r.platform} meeting)`);
  if (r.platform === 'tm') {
    const problem = tmGuestNameProblem(r.bot_name);
    if (problem !== null) return validationError('body/bot_name', problem);
  }
  if (r.callback_enabled && r.callback_config === null) return validationError('body/callback_config', 'is required when callback_enabled is true');
  if (r.mt_config !== null && r.platform !== 'mt') return onlyFor('mt_config', 'mt');
  if (r.tm_config !== null && r.platform !== 'tm') return onlyFor('tm_config', 'tm');
  if (r.streaming_enabled && r.streaming_config === null) return validationError('body/streaming_config', 'is required when streaming_enabled is true');
  if (r.streaming_config !== null && r.streaming_config.input_url === null && r.streaming_config.output_url === null) {
    return validationError('body/streaming_config', 'must have input_url or output_url');
  }
  if (r.vc_config !== null) {
    if (r.platform !== 'vc') return onlyFor('vc_config', 'vc');
    const sources = OBF_SOURCES.filter((k) => r.vc_config?.[k] !== null);
    if (sources.length > 1) return validationError('body/vc_config', `must NOT name more than one of ${OBF_SOURCES.join(', ')} (got ${sources.join(', ')})`);
    if (sources.length === 1 && r.vc_config.zak_token_url !== null) {
      return validationError('body/vc_config/zak_token_url', `must NOT be given with ${sources[0]}: the platform joins with an OBF token or a ZAK, never both`);
    }
  }
  return null;
};

/** Every rule of the request's shape and its cross-field rules; what the service delivers is not judged here. */
export const decodeCreateBotRequestShape = (body: unknown, options: { sandboxHosts: boolean }): E.Either<ApiError, CreateBotRequest> => {
  const decoded = decodeWith(options.sandboxHosts ? codecs.sandbox : codecs.production, 'body', body);
  if (E.isLeft(decoded)) return decoded;
  const platform = platformOfMeetingUrl(decoded.right.meeting_url, options);
  if (platform === null) return E.left(validationError('body/meeting_url', 'INVALID_MEETING_URL: host is not a meeting host'));
  const request: CreateBotRequest = {
    ...decoded.right,
    platform,
    // Transcription switched on without a config uses the service's own provider.
    transcription_config:
      decoded.right.transcription_config ??
      (decoded.right.transcription_enabled ? { provider: DEFAULT_TRANSCRIPTION_PROVIDER, api_key: null, custom_params: null } : null),
  };
  return unlessProblem(crossFieldProblem)(E.right(request));
};

/**
 * A creation request the service can carry out: well formed, and asking for nothing the service does not
 * deliver yet (refused by name, so that no option is ever accepted and ignored).
 */
export const decodeCreateBotRequest = (body: unknown, options: { sandboxHosts: boolean }): E.Either<ApiError, CreateBotRequest> =>
  E.chain((request: CreateBotRequest) => {
    if (request.transcription_config === null) return E.right(request);
    // The provider as the service names it, once it is known to take these options.
    const choice = checkTranscriptionChoice('body/transcription_config', request.transcription_config);
    return E.map((config: TranscriptionChoice): CreateBotRequest => ({ ...request, transcription_config: config }))(choice);
  })(unlessProblem(unavailableOptionRefusal)(decodeCreateBotRequestShape(body, options)));

