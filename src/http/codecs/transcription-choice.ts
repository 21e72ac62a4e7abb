import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { providerNameOf, providerUrlsFromEnv, transcriptionProviders } from '../../adapters/transcription/providers';
import { providerNames, type ProviderName } from '../../adapters/transcription/port';
import { validationError, type ApiError } from '../api-error';
import { uuid } from './bot-configs';
import { decodeWith, jsonObject, nullable, str, strictObject } from './codec-kit';

/** Only their option checks are used here (pure): where the providers are does not matter. */
const checkers = transcriptionProviders({ urls: providerUrlsFromEnv({}) });

export interface TranscriptionChoice {
  readonly provider: ProviderName;
  readonly api_key: string | null;
  readonly custom_params: Record<string, unknown> | null;
}

/**
 * A provider and its options as a request gives them (`location`: e.g. `body/transcription_config`),
 * checked before anything is recorded: a known provider (any case), and what that provider needs (a hosted
 * one's api_key) and refuses (fields the service owns, Default's custom_params), refused naming the field.
 */
export const checkTranscriptionChoice = (
  location: string,
  choice: { readonly provider: string; readonly api_key: string | null; readonly custom_params: Record<string, unknown> | null },
): E.Either<ApiError, TranscriptionChoice> => {
  const provider = providerNameOf(choice.provider);
  if (provider === null) return E.left(validationError(`${location}/provider`, `must be one of ${providerNames.join(', ')} (any case)`));
  const problem = checkers[provider].problemWith({ apiKey: choice.api_key, customParams: choice.custom_params });
  if (problem !== null) {
    // The providers' messages start with the field they are about: `api_key ...`, `custom_params.model ...`.
    const [, field = '', rest = problem] = /^([a-z_]+(?:\.[A-Za-z0-9_]+)*) (.*)$/s.exec(problem) ?? [];
    return E.left(field ? validationError(`${location}/${field.replace(/\./g, '/')}`, rest) : validationError(location, problem));
  }
  return E.right({ provider, api_key: choice.api_key, custom_params: choice.custom_params });
};

export const RetranscribeRequest = strictObject('RetranscribeRequest', {
  transcription: nullable(
    strictObject('transcription', {
      provider: nullable(str(1, 100)),
      api_key: nullable(str(1, 1024)),
      custom_params: nullable(jsonObject),
    }),
  ),
});
export type RetranscribeRequest = t.TypeOf<typeof RetranscribeRequest>;

/** `POST /v2/bots/{id}/retranscribe`: no body, or `{transcription: {provider?, api_key?, custom_params?}}` (Meeting BaaS's). */
export const decodeRetranscribeRequest = (body: unknown): E.Either<ApiError, RetranscribeRequest> =>
  body === undefined ? E.right({ transcription: null }) : decodeWith(RetranscribeRequest, 'body', body);

const LegacySpeechToText = t.union([
  str(1, 100),
  strictObject('speech_to_text', { provider: nullable(str(1, 100)), api_key: nullable(str(1, 1024)) }),
]);

export const LegacyRetranscribeRequest = strictObject('LegacyRetranscribeRequest', {
  bot_uuid: uuid,
  speech_to_text: nullable(LegacySpeechToText),
});

/**
 * Legacy `POST /bots/retranscribe`: `{bot_uuid, speech_to_text?}`, `speech_to_text` a provider name or
 * `{provider?, api_key?}` (Meeting BaaS's v1). Its `webhook_url` is refused (an unknown field): the bot's
 * own webhook_url gets the event.
 */
export const decodeLegacyRetranscribeRequest = (body: unknown): E.Either<ApiError, { bot_uuid: string; asked: { provider: string | null; api_key: string | null; custom_params: null } | null }> =>
  E.map((r: t.TypeOf<typeof LegacyRetranscribeRequest>) => {
    const stt = r.speech_to_text;
    const asked = stt === null ? null : typeof stt === 'string' ? { provider: stt, api_key: null, custom_params: null } : { ...stt, custom_params: null };
    return { bot_uuid: r.bot_uuid, asked };
  })(decodeWith(LegacyRetranscribeRequest, 'body', body));
