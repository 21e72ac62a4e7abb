import * as E from 'fp-ts/Either';
import type { CalendarBotParam } from '../../domain/calendar/calendar-events';
import type { Sealed } from '../../domain/codec-helpers';
import { ApiError, renamedInError, validationError } from '../api-error';
import { RECORDING_MODES } from './bot-configs';
import { decodeWith, httpsUrl, int, isPlainObject, jsonObject, leaf, nullable, oneOf, str, strictObject, wsUrl } from './codec-kit';
import type { BotDefinition } from '../../domain/bot/bot-decider';
import { decodeCreateBotRequest, type CreateBotRequest } from './create-bot-request';
import type { RequestedBotConfig } from '../../domain/bot/bot-config';
import { botConfigFromLegacyRequest } from './legacy-bot-config';
import { checkTranscriptionChoice } from './transcription-choice';
import { decodeLegacyCreateBotRequest, legacyVcFields, SpeechToText, type LegacyCreateBotRequest } from './legacy-create-bot-request';
import { botConfigFromV2Request, type Seal } from './v2-bot-config';
import { explained } from './schema-notes';
import { TargetUrl } from './webhook-requests';

const INT32 = 2_147_483_647;

/** `16khz`, `24khz`, `32khz` or `48khz`: the spec's form of the streaming frequency. */
const Frequency = leaf<string>('streaming_audio_frequency', (u) =>
  typeof u === 'string' && /^(16|24|32|48)khz$/.test(u) ? E.right(u) : E.left('must be one of 16khz, 24khz, 32khz, 48khz'),
  { type: 'string', enum: ['16khz', '24khz', '32khz', '48khz'] },
);


/** The spec's `bot_param` fields, plus `silence_timeout` and `speech_to_text` that the request also accepts. */
const legacyFields = {
  bot_image: nullable(httpsUrl),
  deduplication_key: nullable(str(1, 255)),
  enter_message: nullable(str(0, 4096)),
  extra: nullable(jsonObject),
  noone_joined_timeout: nullable(int(0, INT32)),
  recording_mode: nullable(oneOf(RECORDING_MODES)),
  speech_to_text_api_key: nullable(str(1, 1024)),
  speech_to_text_provider: nullable(str(1, 100)),
  streaming_audio_frequency: nullable(Frequency),
  streaming_input: nullable(wsUrl),
  streaming_output: nullable(wsUrl),
  transcription_custom_parameters: nullable(jsonObject),
  waiting_room_timeout: nullable(int(0, INT32)),
  webhook_url: nullable(TargetUrl),
  ...legacyVcFields,
  silence_timeout: nullable(int(0, INT32)),
  speech_to_text: nullable(SpeechToText),
};

export const LegacyPostCodec = strictObject('bot_param', { bot_name: str(1, 255), ...legacyFields });
export const LegacyPatchCodec = strictObject('bot_param', { bot_name: nullable(str(1, 255)), ...legacyFields });

/** Write-only fields, by path: sealed apart, never shown again (GET shows only that one is set). */
const SECRET_PATHS: Readonly<Record<CalendarBotParam['generation'], readonly string[]>> = {
  legacy: ['speech_to_text_api_key', 'vc_obf_token', 'vc_sdk_pwd'],
  v2: ['transcription_config.api_key', 'callback_config.secret', 'vc_config.obf_token'],
};

export type BotParamFields = Readonly<Record<string, unknown>>;

/** The fields a legacy request gave (null is "not given", the spec's default), `speech_to_text` spread into its two flat fields. */
const givenLegacy = (decoded: Record<string, unknown>): BotParamFields => {
  const { speech_to_text, ...rest } = decoded as { speech_to_text: { provider: string; api_key: string | null } | null } & Record<string, unknown>;
  const flat: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null));
  if (speech_to_text) {
    flat.speech_to_text_provider ??= speech_to_text.provider;
    if (speech_to_text.api_key !== null) flat.speech_to_text_api_key ??= speech_to_text.api_key;
  }
  return flat;
};

export const decodeLegacyBotParam = (body: unknown, patch: boolean): E.Either<ApiError, BotParamFields> =>
  E.map(givenLegacy)(decodeWith(patch ? LegacyPatchCodec : LegacyPostCodec, 'body', patch && body === undefined ? {} : body));

const readPath = (record: Record<string, unknown>, path: string): unknown => {
  const [head, tail] = path.split('.', 2) as [string, string | undefined];
  const value = record[head];
  if (tail === undefined) return value;
  return isPlainObject(value) ? value[tail] : undefined;
};

const writePath = (record: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> => {
  const [head, tail] = path.split('.', 2) as [string, string | undefined];
  if (tail === undefined) return { ...record, [head]: value };
  const inner = isPlainObject(record[head]) ? record[head] : {};
  return { ...record, [head]: { ...inner, [tail]: value } };
};

/** The request's fields as the domain keeps them: secrets sealed apart under their paths. */
export const sealBotParam = (generation: CalendarBotParam['generation'], fields: BotParamFields, seal: (plain: string) => Sealed): CalendarBotParam => {
  let shown: Record<string, unknown> = { ...fields };
  const secrets: Record<string, Sealed> = {};
  for (const path of SECRET_PATHS[generation]) {
    const value = readPath(shown, path);
    if (typeof value !== 'string') continue;
    secrets[path] = seal(value);
    shown = writePath(shown, path, null);
  }
  const key = shown.deduplication_key;
  return { generation, shown, secrets, deduplication_key: typeof key === 'string' ? key : null };
};

/** PATCH: the fields it gives replace the stored ones whole; the others, secrets included, stay. */
export const mergeBotParam = (stored: CalendarBotParam, patch: CalendarBotParam): CalendarBotParam => {
  const shown = { ...stored.shown, ...patch.shown };
  const replaced = (path: string) => Object.prototype.hasOwnProperty.call(patch.shown, path.split('.')[0]!);
  const kept = Object.fromEntries(Object.entries(stored.secrets).filter(([path]) => !replaced(path)));
  const key = shown.deduplication_key;
  return { generation: stored.generation, shown, secrets: { ...kept, ...patch.secrets }, deduplication_key: typeof key === 'string' ? key : null };
};

/** `bot_param` as GET shows it: the given fields, each secret only as set. */
export const shownBotParam = (param: CalendarBotParam): Record<string, unknown> => {
  let shown: Record<string, unknown> = { ...param.shown };
  for (const path of Object.keys(param.secrets)) shown = writePath(shown, path, '********');
  return shown;
};

const openFields = (param: CalendarBotParam, open: (sealed: Sealed) => string): Record<string, unknown> => {
  let fields: Record<string, unknown> = { ...param.shown };
  for (const [path, sealed] of Object.entries(param.secrets)) fields = writePath(fields, path, open(sealed));
  return fields;
};

/**
 * A legacy `bot_param` as the legacy creation request (POST /bots) it stands for, with the event's link;
 * the fields POST /bots has no counterpart for are added to the config after (withCalendarOnlyFields).
 */
const legacyBodyOf = (f: Record<string, unknown>, meetingUrl: string): E.Either<ApiError, Record<string, unknown>> => {
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));
  const leave = defined({ noone_joined_timeout: f.noone_joined_timeout, waiting_room_timeout: f.waiting_room_timeout, silence_timeout: f.silence_timeout });
  const speech = f.speech_to_text_provider !== undefined || f.speech_to_text_api_key !== undefined;
  return E.right(
    defined({
      meeting_url: meetingUrl,
      bot_name: f.bot_name,
      bot_image: f.bot_image,
      entry_message: f.enter_message,
      extra: f.extra,
      recording_mode: f.recording_mode,
      webhook_url: f.webhook_url,
      deduplication_key: f.deduplication_key,
      vc_obf_token: f.vc_obf_token,
      vc_obf_token_url: f.vc_obf_token_url,
      vc_obf_token_user_id: f.vc_obf_token_user_id,
      vc_sdk_id: f.vc_sdk_id,
      vc_sdk_pwd: f.vc_sdk_pwd,
      vc_access_token_url: f.vc_access_token_url,
      ...(Object.keys(leave).length > 0 ? { automatic_leave: leave } : {}),
      ...(speech ? { speech_to_text: defined({ provider: f.speech_to_text_provider, api_key: f.speech_to_text_api_key }) } : {}),
    }),
  );
};

/** `16khz` -> 16000: the bot config's frequency in Hz. */
const hertzOf = (frequency: string): number => Number.parseInt(frequency, 10) * 1000;

/**
 * The `bot_param` fields POST /bots lacks, delivered as v2 bots carry them: `streaming_input`/`_output`/
 * `_audio_frequency` as the v2 `streaming_config`, `transcription_custom_parameters` as the speech-to-text
 * provider's `custom_params` (checked by that provider as v2 checks them).
 */
const withCalendarOnlyFields = (config: RequestedBotConfig, f: Record<string, unknown>): E.Either<ApiError, RequestedBotConfig> => {
  const input = (f.streaming_input as string | undefined) ?? null;
  const output = (f.streaming_output as string | undefined) ?? null;
  const frequency = f.streaming_audio_frequency as string | undefined;
  if (input === null && output === null && frequency !== undefined) {
    return E.left(validationError('body/streaming_audio_frequency', 'needs streaming_input or streaming_output'));
  }
  const streaming = input === null && output === null ? null : { input_url: input, output_url: output, audio_frequency: frequency === undefined ? 16_000 : hertzOf(frequency) };
  const customParams = f.transcription_custom_parameters as Record<string, unknown> | undefined;
  if (customParams === undefined) return E.right({ ...config, streaming });
  if (config.transcription === null) return E.left(validationError('body/transcription_custom_parameters', 'needs speech_to_text_provider'));
  const apiKey = typeof f.speech_to_text_api_key === 'string' ? f.speech_to_text_api_key : null;
  const checked = checkTranscriptionChoice('body/speech_to_text', { provider: config.transcription.provider, api_key: apiKey, custom_params: customParams });
  if (E.isLeft(checked)) return E.left(renamedInError(checked.left, 'body/speech_to_text/custom_params', 'body/transcription_custom_parameters'));
  return E.right({ ...config, streaming, transcription: { ...config.transcription, custom_params: customParams } });
};

/** A refusal of the legacy request names the `bot_param` field the caller gave. */
const LEGACY_NAMES: readonly (readonly [string, string])[] = [
  ['body/entry_message', 'body/enter_message'],
  ['body/automatic_leave/noone_joined_timeout', 'body/noone_joined_timeout'],
  ['body/automatic_leave/waiting_room_timeout', 'body/waiting_room_timeout'],
  ['body/automatic_leave/silence_timeout', 'body/silence_timeout'],
  ['body/speech_to_text/api_key', 'body/speech_to_text_api_key'],
  ['body/speech_to_text', 'body/speech_to_text_provider'],
];

const inLegacyTerms = (err: ApiError): ApiError => {
  const found = LEGACY_NAMES.find(([v2]) => err.message.startsWith(v2));
  return found ? renamedInError(err, found[0], found[1]) : err;
};

export interface BotMaking {
  readonly open: (sealed: Sealed) => string;
  readonly seal: Seal;
  readonly sandboxHosts: boolean;
}

/**
 * The bot an event gets from the parameters attached to it: decoded exactly as POST /bots (legacy) or
 * POST /v2/bots (v2) would decode it with the event's meeting link, so it is the same bot either way.
 */
export const botDefinitionOfParam = (param: CalendarBotParam, meetingUrl: string, making: BotMaking): E.Either<ApiError, BotDefinition> => {
  const fields = openFields(param, making.open);
  const options = { sandboxHosts: making.sandboxHosts };
  if (param.generation === 'legacy') {
    const decoded = E.mapLeft(inLegacyTerms)(E.chain((body: Record<string, unknown>) => decodeLegacyCreateBotRequest(body, options))(legacyBodyOf(fields, meetingUrl)));
    return E.chain((r: LegacyCreateBotRequest) =>
      E.map((config: RequestedBotConfig): BotDefinition => ({ meeting_url: r.meeting_url, platform: r.platform, bot_name: r.bot_name, extra: r.extra, config }))(
        withCalendarOnlyFields(botConfigFromLegacyRequest(r, making.seal), fields),
      ),
    )(decoded);
  }
  const { deduplication_key: _key, ...body } = fields;
  return E.map((r: CreateBotRequest): BotDefinition => ({
    meeting_url: r.meeting_url, platform: r.platform, bot_name: r.bot_name, extra: r.extra, config: botConfigFromV2Request(r, making.seal),
  }))(decodeCreateBotRequest({ ...body, meeting_url: meetingUrl }, options));
};

/** POST /v2/calendars/{id}/bots: which event, whether its whole series, and the bot as POST /v2/bots takes it (no meeting_url). */
export interface V2CalendarBotRequest {
  readonly event_id: string;
  readonly all_occurrences: boolean;
  readonly fields: BotParamFields;
}

export const decodeV2CalendarBotRequest = (body: unknown): E.Either<ApiError, V2CalendarBotRequest> => {
  if (!isPlainObject(body)) return E.left(validationError('body', 'must be object'));
  const { event_id, all_occurrences, meeting_url, series_id, ...fields } = body;
  if (series_id !== undefined && series_id !== null && typeof series_id !== 'string') return E.left(validationError('body/series_id', 'must be string'));
  if (meeting_url !== undefined) return E.left(validationError('body/meeting_url', 'is not an allowed property: the bot joins the event\'s own meeting link'));
  if (typeof event_id !== 'string') {
    return E.left(validationError('body/event_id', event_id === undefined ? 'is required (the event names its series; all_occurrences covers the whole series)' : 'must be string'));
  }
  if (all_occurrences !== undefined && typeof all_occurrences !== 'boolean') return E.left(validationError('body/all_occurrences', 'must be boolean'));
  if (fields.deduplication_key !== undefined && (typeof fields.deduplication_key !== 'string' || fields.deduplication_key.length === 0)) {
    return E.left(validationError('body/deduplication_key', 'must be a non-empty string'));
  }
  return E.right({ event_id, all_occurrences: all_occurrences ?? false, fields });
};
