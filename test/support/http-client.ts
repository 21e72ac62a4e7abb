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

/** A client bound to one team's API key. */
export const apiClient = (baseUrl: string, apiKey: string) => ({
  post: (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(baseUrl, 'POST', path, { ...(body === undefined ? {} : { body }), headers: { 'x-service-api-key': apiKey, ...headers } }),
  patch: (path: string, body?: unknown) => request(baseUrl, 'PATCH', path, { ...(body === undefined ? {} : { body }), headers: { 'x-service-api-key': apiKey } }),
  get: (path: string) => request(baseUrl, 'GET', path, { headers: { 'x-service-api-key': apiKey } }),
  put: (path: string, body?: unknown) => request(baseUrl, 'PUT', path, { ...(body === undefined ? {} : { body }), headers: { 'x-service-api-key': apiKey } }),
  delete: (path: string) => request(baseUrl, 'DELETE', path, { headers: { 'x-service-api-key': apiKey } }),
});

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
