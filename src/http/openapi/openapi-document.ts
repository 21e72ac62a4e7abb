import { STATUS_CODES } from 'node:http';
import { Defaulted, StrictObject } from '../codecs/codec-kit';
import { UUID_SCHEMA } from '../codecs/path-uuid';
import type { JsonSchema } from '../codecs/schema-notes';
import { sendingAccessAllows } from '../middleware/sending-access';
import { jsonSchemaOf } from './json-schema-of';
import { isCodec, type OperationDoc, type ParameterDoc, type ResponseDoc, type RouteDocs, type SchemaSource } from './operation-doc';
import type { WebhookDocs } from './webhook-doc';

export type OpenApiDocument = Record<string, any>;

/** Every path parameter of the API is an id; a new kind of parameter is given its schema here. */
const PATH_PARAMETERS: Readonly<Record<string, JsonSchema>> = {
  bot_id: { ...UUID_SCHEMA, description: "The bot's id." },
  webhook_id: { ...UUID_SCHEMA, description: "The webhook endpoint's id." },
  calendar_id: { ...UUID_SCHEMA, description: "The calendar's id." },
  uuid: { ...UUID_SCHEMA, description: 'The id (uuid) of the calendar, the event or the vc OAuth connection.' },
  credential_id: { ...UUID_SCHEMA, description: "The vc credential's or the tm or mt login's id." },
  workspace_id: { ...UUID_SCHEMA, description: "The tm or mt workspace's id." },
};

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

export const pathParametersOf = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Whether a Sending Access key may call the route: the rule the authentication middleware applies. */
export const sendingAccessMayCall = (method: string, path: string): boolean => sendingAccessAllows(method, path.replace(/\{[^}]+\}/g, SAMPLE_ID));

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  description:
    "Every error, v2 and legacy alike: `code` is the one to match on; `message` and `details` say what to fix (a field's path first, such as " +
    '`body/bot_name`). Each route lists its codes; any route may also answer `FST_ERR_NOT_FOUND` (404, no such route), ' +
    '`FST_ERR_METHOD_NOT_ALLOWED` (405, with `Allow`), `FST_ERR_BAD_REQUEST` (another 4xx) and `FST_ERR_INTERNAL` (500, with a request id to quote).',
  required: ['success', 'error', 'code', 'message', 'statusCode'],
  properties: {
    success: { const: false },
    error: { type: 'string', description: "The status's name, such as Bad Request." },
    code: { type: 'string', pattern: '^FST_ERR_[A-Z0-9_]+$' },
    message: { type: 'string' },
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    details: { type: 'string' },
    retryAfter: { type: 'integer', minimum: 1, description: 'Seconds to wait (429), as the Retry-After header says.' },
  },
};

/** An error response of one route and status: the envelope with the codes that route answers with it. */
const errorSchema = (status: number, codes: readonly string[]): JsonSchema => ({
  allOf: [
    { $ref: '#/components/schemas/ErrorEnvelope' },
    { type: 'object', required: ['code', 'statusCode'], properties: { code: { type: 'string', enum: [...codes].sort() }, statusCode: { const: status } } },
  ],
});

/** The errors every route of its kind answers, derived from what it takes and who may call it. */
export const derivedErrors = (method: string, path: string, doc: OperationDoc): Record<number, string[]> => {
  const errors: Record<number, string[]> = {};
  const add = (status: number, code: string) => {
    errors[status] = [...new Set([...(errors[status] ?? []), code])];
  };
  if (!doc.ownMediaTypes) {
    if (doc.body) {
      add(400, 'FST_ERR_VALIDATION');
      add(413, 'FST_ERR_CTP_BODY_TOO_LARGE');
      add(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    }
    if (doc.query || pathParametersOf(path).length > 0) add(400, 'FST_ERR_VALIDATION');
    if (!doc.noKey) {
      add(401, 'FST_ERR_UNAUTHORIZED');
      if (!sendingAccessMayCall(method, path)) add(403, 'FST_ERR_FORBIDDEN');
      if (method !== 'GET') add(429, 'FST_ERR_TOO_MANY_REQUESTS');
    }
  }
  for (const [status, codes] of Object.entries(doc.errors ?? {})) for (const code of codes) add(Number(status), code);
  return errors;
};

/** Builds the document; what cannot be described is collected in `problems` (the drift test prints them). */
class DocumentBuilder {
  readonly problems: string[] = [];
  readonly schemas: Record<string, JsonSchema> = { ErrorEnvelope: ERROR_ENVELOPE };

  schemaOf(source: SchemaSource, where: string): JsonSchema {
    if (!isCodec(source)) return source;
    try {
      return jsonSchemaOf(source, where);
    } catch (error) {
      this.problems.push(`${where}: ${(error as Error).message}`);
      return {};
    }
  }

  /** A named shape goes to the components once; the same name for another shape is a mistake. */
  named(name: string | undefined, source: SchemaSource, where: string): JsonSchema {
    const schema = this.schemaOf(source, where);
    if (name === undefined) return schema;
    const known = this.schemas[name];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(schema)) {
      this.problems.push(`${where}: the component name ${name} is already used for another shape`);
    }
    this.schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  }

  queryParameters(query: OperationDoc['query'], where: string): Record<string, unknown>[] {
    if (query === undefined) return [];
    if (query instanceof StrictObject) {
      return Object.entries(query.props as Record<string, any>).map(([name, codec]) => {
        const optional = codec instanceof Defaulted;
        const inner = optional ? (codec as Defaulted<unknown, unknown>).codec : codec;
        const fallback = optional ? (codec as Defaulted<unknown, unknown>).fallback() : undefined;
        const schema = this.schemaOf(inner, `${where}/${name}`);
        return parameter(name, 'query', !optional, fallback === undefined || fallback === null ? schema : { ...schema, default: fallback });
      });
    }
    if (isCodec(query as SchemaSource)) {
      this.problems.push(`${where}: a query codec must be a strictObject (one parameter per field)`);
      return [];
    }
    return Object.entries(query as Record<string, ParameterDoc>).map(([name, p]) => parameter(name, 'query', p.required, p.schema, p.description));
  }

  response(r: ResponseDoc, where: string): Record<string, unknown> {
    const shape = this.named(r.name, r.schema, where);
    const schema = r.envelope ? { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data: shape } } : shape;
    const example = r.example === undefined ? undefined : r.envelope ? { success: true, data: r.example } : r.example;
    return { description: r.description, content: { [r.mediaType ?? 'application/json']: { schema, ...(example === undefined ? {} : { example }) } } };
  }

  operation(key: string, doc: OperationDoc): Record<string, unknown> {
    const [method = '', path = ''] = key.split(' ');
    const sending = !doc.noKey && sendingAccessMayCall(method, path);
    const access = doc.noKey ? 'No key needed.' : sending ? 'Full Access and Sending Access keys.' : 'Full Access keys only (a Sending Access key gets 403).';
    const pathParameters = pathParametersOf(path).map((name) => {
      const schema = PATH_PARAMETERS[name];
      if (schema === undefined) this.problems.push(`${key}: the path parameter {${name}} has no schema: add it to PATH_PARAMETERS in src/http/openapi/openapi-document.ts`);
      const { description, ...rest } = schema ?? {};
      return parameter(name, 'path', true, rest, description as string | undefined);
    });
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(doc.responses)) responses[status] = this.response(r, `${key} ${status}`);
    for (const [status, codes] of Object.entries(derivedErrors(method, path, doc))) {
      const code = Number(status);
      const page = responses[status] as { description: string; content: Record<string, unknown> } | undefined;
      const envelope = { 'application/json': { schema: errorSchema(code, codes) } };
      // A route of its own media types may also answer a status in the envelope (a body it could not read).
      responses[status] = page
        ? { description: `${page.description} Or the error envelope: ${codes.join(', ')}.`, content: { ...page.content, ...envelope } }
        : {
            description: `${STATUS_CODES[code] ?? 'Error'}: ${codes.join(', ')}`,
            ...(code === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } } } : {}),
            content: envelope,
          };
    }
    return {
      operationId: doc.operationId,
      tags: [doc.tag],
      summary: doc.summary,
      description: [doc.description, `**Access**: ${access}`].filter(Boolean).join('\n\n'),
      'x-access': doc.noKey ? 'none' : sending ? 'full-or-sending' : 'full',
      security: doc.noKey ? [] : [{ ApiKey: [] }],
      parameters: [...pathParameters, ...this.queryParameters(doc.query, `${key} query`).map((p) => (doc.emptyQueryValueIsAbsent ? emptyMeansAbsent(p) : p))],
      ...(doc.body
        ? {
            requestBody: {
              required: doc.body.required,
              content: { [doc.body.mediaType ?? 'application/json']: { schema: this.named(doc.body.name, doc.body.schema, `${key} body`), examples: doc.body.examples } },
            },
          }
        : {}),
      responses,
    };
  }
}

/** `name=` is taken as not given: the empty text is a value the parameter takes, whatever its type. */
const emptyMeansAbsent = (p: Record<string, unknown>): Record<string, unknown> => ({
  ...p,
  allowEmptyValue: true,
  schema: { anyOf: [p.schema, { type: 'string', maxLength: 0 }] },
  description: [p.description, 'Empty: not given.'].filter(Boolean).join(' '),
});

const parameter = (name: string, where: 'path' | 'query', required: boolean, schema: JsonSchema, description?: string) => ({
  name,
  in: where,
  required,
  ...(description === undefined ? {} : { description }),
  schema,
});

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface DocumentInfo {
  readonly version: string;
  readonly tags: readonly { readonly name: string; readonly description: string }[];
}

/** The OpenAPI 3.1 document of the public API, from the routes' descriptions and the webhooks'. */
export const buildOpenApiDocument = (routes: RouteDocs, webhooks: WebhookDocs, info: DocumentInfo): { document: OpenApiDocument; problems: string[] } => {
  const builder = new DocumentBuilder();
  const paths: Record<string, Record<string, unknown>> = {};
  const keys = Object.keys(routes).sort((a, b) => {
    const [ma = '', pa = ''] = a.split(' ');
    const [mb = '', pb = ''] = b.split(' ');
    return pa === pb ? METHOD_ORDER.indexOf(ma) - METHOD_ORDER.indexOf(mb) : pa < pb ? -1 : 1;
  });
  for (const key of keys) {
    const [method = '', path = ''] = key.split(' ');
    paths[path] ??= {};
    paths[path]![method.toLowerCase()] = builder.operation(key, routes[key]!);
  }
  const webhookItems: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(webhooks)) {
    webhookItems[name] = {
      post: {
        operationId: hook.operationId,
        tags: [hook.tag],
        summary: hook.summary,
        description: hook.description,
        parameters: hook.headers.map((h) => ({ name: h.name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' } })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: builder.named(hook.name, hook.schema, `webhook ${name}`), ...(hook.example === undefined ? {} : { example: hook.example }) } },
        },
        responses: { '2XX': { description: 'Received: any 2xx within 15 s. Anything else is retried on the schedule of the webhook section.' } },
      },
    };
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Meeting bot service API',
      version: info.version,
      description: API_DESCRIPTION,
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [{ url: '/', description: 'This service' }],
    tags: info.tags,
    paths,
    webhooks: webhookItems,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-service-api-key',
          description: "A team's API key. Full Access keys reach every route; Sending Access keys only create bots (each route says which).",
        },
      },
      schemas: builder.schemas,
    },
  };
  return { document, problems: builder.problems };
};

const API_DESCRIPTION = [
  'Send bots into vc (Zoom), tm (Microsoft Teams) and mt (Google Meet) meetings, and get their recordings, transcripts and events.',
  '',
  '- **v2** routes (`/v2/...`) answer `{"success": true, "data": ...}`; the **legacy** routes at the root paths answer their data as it is.',
  '- **Errors**, v2 and legacy, are `{"success": false, "error", "code", "message", "statusCode", "details"}`; match on `code` (`FST_ERR_*`).',
  '- **Keys**: every route but this document, `/docs`, `/health` and the mt identity provider (`/v2/mt-sso/...`, which Google calls) takes `x-service-api-key`. Full Access keys reach every route; Sending Access keys only the routes that create bots.',
  '- **Rate limit**: writes (not GETs) are limited per team per second; over it, 429 with `Retry-After`.',
  '- **Lists** are pages: pass the previous answer\'s `next_cursor` (legacy: `next`) as `cursor` until it is null.',
  '- **Write-only fields** (API keys of providers, secrets, tokens, passwords) are never shown again once sent.',
  '- **Webhooks** are signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`); their bodies are under `webhooks`.',
].join('\n');
