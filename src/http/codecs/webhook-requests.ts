import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { webhookEventTypes } from '../../domain/webhooks/webhook-event-types';
import { type ApiError, validationError } from '../api-error';
import { arrayOf, bool, checkLength, decodeWith, leaf, nullable, oneOf, str, strictObject, withDefault } from './codec-kit';

const MAX_URL_LENGTH = 2048;

/** A target's URL: parsed and bounded here; which schemes and addresses are allowed is the target policy's. */
export const TargetUrl = leaf<string>('url', (u) => {
  if (typeof u !== 'string') return E.left('must be string');
  const length = checkLength(u, 1, MAX_URL_LENGTH);
  if (E.isLeft(length)) return length;
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? E.right(u) : E.left('must be an https URL');
  } catch {
    return E.left('must be a valid URL');
  }
}, {
  type: 'string',
  format: 'uri',
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description: 'A public https address (plain http and private addresses only where the service allows them for development).',
  examples: ['https://example.com/hooks'],
});

/** Event kinds an endpoint subscribes to, each once; absent, null or empty: every kind, present and future. */
const EventTypes = arrayOf(oneOf(webhookEventTypes), 0, webhookEventTypes.length);
const Description = nullable(str(0, 500));

export const CreateWebhookCodec = strictObject('CreateWebhook', {
  url: TargetUrl,
  events: withDefault(EventTypes, (): string[] => []),
  description: Description,
});

export const UpdateWebhookCodec = strictObject('UpdateWebhook', {
  url: withDefault(TargetUrl, () => undefined),
  events: withDefault(EventTypes, () => undefined),
  description: withDefault(str(0, 500), () => undefined),
  enabled: withDefault(bool, () => undefined),
});

export interface CreateWebhookRequest {
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
}

export interface UpdateWebhookRequest {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly description?: string | null;
  readonly enabled?: boolean;
}

const noRepeats = (events: readonly string[]): ApiError | null =>
  new Set(events).size === events.length ? null : validationError('body/events', 'must NOT have duplicate items');

export const decodeCreateWebhook = (body: unknown): E.Either<ApiError, CreateWebhookRequest> =>
  E.chain((r: t.TypeOf<typeof CreateWebhookCodec>) => {
    const repeated = noRepeats(r.events);
    return repeated ? E.left(repeated) : E.right({ url: r.url, events: r.events, description: r.description });
  })(decodeWith(CreateWebhookCodec, 'body', body));

/** `description: null` clears it; a field left out keeps its value; at least one field must be given. */
export const decodeUpdateWebhook = (body: unknown): E.Either<ApiError, UpdateWebhookRequest> => {
  const clearsDescription = typeof body === 'object' && body !== null && (body as Record<string, unknown>).description === null;
  return E.chain((r: t.TypeOf<typeof UpdateWebhookCodec>) => {
    const changes: UpdateWebhookRequest = {
      ...(r.url !== undefined ? { url: r.url } : {}),
      ...(r.events !== undefined ? { events: r.events } : {}),
      ...(r.description !== undefined ? { description: r.description } : clearsDescription ? { description: null } : {}),
      ...(r.enabled !== undefined ? { enabled: r.enabled } : {}),
    };
    if (Object.keys(changes).length === 0) return E.left(validationError('body', 'must have at least one of url, events, description, enabled'));
    const repeated = changes.events ? noRepeats(changes.events) : null;
    return repeated ? E.left(repeated) : E.right(changes);
  })(decodeWith(UpdateWebhookCodec, 'body', body ?? {}));
};

export const RetryCallbackCodec = strictObject('RetryCallback', {
  url: withDefault(TargetUrl, () => undefined),
  method: withDefault(oneOf(['POST', 'PUT'] as const), () => undefined),
  secret: withDefault(str(1, 256), () => undefined),
});

export interface RetryCallbackRequest {
  readonly url?: string;
  readonly method?: 'POST' | 'PUT';
  readonly secret?: string;
}

/** The body is optional: without one, the bot's own callback configuration is used. */
export const decodeRetryCallback = (body: unknown): E.Either<ApiError, RetryCallbackRequest> =>
  E.map((r: t.TypeOf<typeof RetryCallbackCodec>): RetryCallbackRequest => ({
    ...(r.url !== undefined ? { url: r.url } : {}),
    ...(r.method !== undefined ? { method: r.method } : {}),
    ...(r.secret !== undefined ? { secret: r.secret } : {}),
  }))(decodeWith(RetryCallbackCodec, 'body', body ?? {}));
