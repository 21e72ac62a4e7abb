/**
 * The typed client of the meeting bot service's API: openapi-fetch over the types openapi-typescript makes
 * from docs/openapi.json (`npm run openapi` regenerates client/api-types.ts). Every path, parameter, body,
 * answer and error code is typed from the document:
 *
 *   const api = createApiClient({ baseUrl: 'https://bots.example.com', apiKey: process.env.API_KEY });
 *   const { data, error } = await api.POST('/v2/bots', { body: { meeting_url, bot_name: 'Notetaker' } });
 *   if (error) console.log(error.code); // 'FST_ERR_VALIDATION' | 'FST_ERR_INSUFFICIENT_TOKENS' | ...
 *   else console.log(data.data.bot_id);
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './api-types';

export type { components, operations, paths, webhooks } from './api-types';
export type { Middleware } from 'openapi-fetch';

export interface ApiClientOptions {
  /** where the service is, e.g. `https://bots.example.com` (no trailing slash) */
  readonly baseUrl: string;
  /** the team's key (`x-service-api-key`); leave it out for the routes that need none */
  readonly apiKey?: string;
  /** another fetch (a proxy's, a test's) */
  readonly fetch?: typeof globalThis.fetch;
  /** openapi-fetch middleware, in order (logging, retries, checks) */
  readonly middleware?: readonly Middleware[];
}

export type ApiClient = Client<paths, 'application/json'>;

export const createApiClient = (options: ApiClientOptions): ApiClient => {
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    headers: options.apiKey === undefined ? {} : { 'x-service-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.middleware && options.middleware.length > 0) client.use(...options.middleware);
  return client;
};

/** Every error the service answers: `code` is the one to match on. */
export type ApiErrorBody = components['schemas']['ErrorEnvelope'];

/** The error codes one operation answers, e.g. `ErrorCodeOf<'createBot'>`. */
export type ErrorCodeOf<Op extends keyof operations> = {
  [S in keyof operations[Op]['responses']]: operations[Op]['responses'][S] extends { content: { 'application/json': { code: infer C } } }
    ? S extends 200 | 201 | 202
      ? never
      : C
    : never;
}[keyof operations[Op]['responses']];

/** A request body, by its name in the document, e.g. `Schema<'CreateBotRequest'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
