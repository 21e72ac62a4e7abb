import type { Middleware } from 'openapi-fetch';
import { createApiClient, type ApiClient } from '../../client';
import { openApiContract } from './openapi-contract';
import { ADMIN_TOKEN } from './test-service';

export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

export const request = async (
  baseUrl: string,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly rawBody?: string | Buffer; readonly headers?: Record<string, string> } = {},
): Promise<JsonResponse> => {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the test sees the raw text
  }
  return { status: response.status, headers: response.headers, body: parsed };
};

/** Throws, naming what to describe where, when an answer breaks docs/openapi.json (test/support/openapi-contract.ts). */
export const keepsTheDocument: Middleware = {
  async onResponse({ request, response }) {
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: checked as it is
    }
    const problem = openApiContract().problemWithResponse(request.method, request.url, response.status, response.headers.get('content-type'), body);
    if (problem !== null) throw new Error(problem);
    return undefined;
  },
};

/** `fetch` for the routes browsers and other systems call (pages, forms): throws, as the typed client does, when the answer breaks the document. */
export const documentedFetch = async (url: string, init: RequestInit = {}): Promise<Response> => {
  const response = await fetch(url, init);
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: checked as it is
  }
  const problem = openApiContract().problemWithResponse(init.method ?? 'GET', url, response.status, response.headers.get('content-type'), body);
  if (problem !== null) throw new Error(problem);
  return response;
};

/** The project's typed client (client/), checking every answer against the document: what tests and benches use. */
export const typedApi = (baseUrl: string, apiKey?: string): ApiClient =>
  createApiClient({ baseUrl, ...(apiKey === undefined ? {} : { apiKey }), middleware: [keepsTheDocument] });

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A client bound to one team's API key, taking paths as written (`/v2/bots/${id}`), answering `{status,
 * headers, body}`: the typed client underneath (client/index.ts), so every call of the tests goes through
 * it and has its answer checked against docs/openapi.json.
 */
export const apiClient = (baseUrl: string, apiKey: string) => {
  const api = typedApi(baseUrl, apiKey);
  const call = async (method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> => {
    const request = api.request as (m: string, p: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await request(method.toLowerCase(), path, { ...(body === undefined ? {} : { body }), headers, parseAs: 'text' });
    // openapi-fetch reads the body: text on success, JSON (or text) on an error.
    const raw = response.ok ? data : error;
    let parsed: unknown = raw;
    if (typeof raw === 'string') {
      try {
        parsed = raw ? JSON.parse(raw) : undefined;
      } catch {
        // not JSON: the test sees the raw text
      }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return {
    post: (path: string, body?: unknown, headers: Record<string, string> = {}) => call('POST', path, body, headers),
    patch: (path: string, body?: unknown) => call('PATCH', path, body),
    get: (path: string) => call('GET', path),
    put: (path: string, body?: unknown) => call('PUT', path, body),
    delete: (path: string) => call('DELETE', path),
  };
};

export const adminClient = (baseUrl: string) => ({
  post: (path: string, body?: unknown) =>
    request(baseUrl, 'POST', path, { ...(body === undefined ? {} : { body }), headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
  get: (path: string) => request(baseUrl, 'GET', path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
  put: (path: string, body?: unknown) =>
    request(baseUrl, 'PUT', path, { ...(body === undefined ? {} : { body }), headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
  delete: (path: string) => request(baseUrl, 'DELETE', path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
});

export interface CreatedTeam {
  readonly team_id: string;
  readonly api_key: string;
}

export const createTeam = async (
  baseUrl: string,
  team: { name?: string; tokens?: number; daily_bot_cap?: number; rate_limit_per_second?: number } = {},
): Promise<CreatedTeam> => {
  const response = await adminClient(baseUrl).post('/admin/teams', { name: 'team', tokens: 100, rate_limit_per_second: 1000, ...team });
  if (response.status !== 201) throw new Error(`team creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
};

export const MEETING = 'https://meet.google.com/abc-defg-hij';
