import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describePublicApi } from '../../src/capabilities/api-document';

/**
 * Holds what the service answers (and the webhooks it sends) to docs/openapi.json, strictly: every object
 * the document describes with properties may have only those (the published document leaves them open for
 * clients; the tests do not, so that a field added or renamed without its description fails here).
 */
const DOCUMENT_ID = 'openapi.json';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** additionalProperties: false wherever properties are listed and nothing is said; refs into the document by id. */
const strictly = (node: unknown, insideAllOf = false): unknown => {
  if (Array.isArray(node)) return node.map((n) => strictly(n, insideAllOf));
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = `${DOCUMENT_ID}${value}`;
    else if (key === 'allOf') out[key] = (value as unknown[]).map((member) => strictly(member, true));
    else if (key === 'properties' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictly(v)]));
    else out[key] = strictly(value);
  }
  if (!insideAllOf && isObject(node.properties) && node.additionalProperties === undefined) out.additionalProperties = false;
  return out;
};

/** `/v2/bots/{bot_id}` as a pattern; literal paths win over templated ones (`/v2/bots/scheduled`). */
interface PathTemplate {
  readonly template: string;
  readonly pattern: RegExp;
  readonly params: number;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface Contract {
  /** why an answer breaks the document, or null when it keeps it */
  readonly problemWithResponse: (method: string, url: string, status: number, contentType: string | null, body: unknown) => string | null;
  /** why a webhook body breaks the document's `webhooks`, or null */
  readonly problemWithWebhook: (body: unknown) => string | null;
  readonly document: Record<string, any>;
}

const HOW_TO_FIX =
  'Describe it where the route is described (the `*-router-doc.ts` beside its router; shapes in src/http/codecs/responses/), then `npm run openapi`.';

const build = (): Contract => {
  const { document, problems } = describePublicApi();
  if (problems.length > 0) throw new Error(`the API cannot be described:\n${problems.join('\n')}`);
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(strictly(document) as Record<string, unknown>, DOCUMENT_ID);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (path: string): ValidateFunction => {
    let v = validators.get(path);
    if (!v) {
      v = ajv.getSchema(`${DOCUMENT_ID}#${path}`)!;
      if (!v) throw new Error(`no schema at ${path}`);
      validators.set(path, v);
    }
    return v;
  };
  const templates: PathTemplate[] = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    params: (template.match(/\{/g) ?? []).length,
  }));
  const templateOf = (path: string): string | null =>
    templates.filter((t) => t.pattern.test(path)).sort((a, b) => a.params - b.params)[0]?.template ?? null;
  const errorEnvelope = validatorAt(`/${pointer('components', 'schemas', 'ErrorEnvelope')}`);

  const problemWithResponse = (method: string, url: string, status: number, contentType: string | null, body: unknown): string | null => {
    const path = new URL(url, 'http://service').pathname;
    const template = templateOf(path);
    const operation = template === null ? undefined : document.paths[template][method.toLowerCase()];
    const where = `${method} ${template ?? path}`;
    if (operation === undefined) {
      // No such operation: only the envelope's 404 or 405 may answer it.
      if ((status === 404 || status === 405) && errorEnvelope(body)) return null;
      return `${where} answered ${status}, but the document has no such operation. ${HOW_TO_FIX}`;
    }
    const response = operation.responses[String(status)];
    if (response === undefined) {
      if (status === 405 && errorEnvelope(body)) return null;
      return `${where} answered ${status} (${JSON.stringify(body)?.slice(0, 300)}), a status the document does not list for it (it lists ${Object.keys(operation.responses).join(', ')}). ${HOW_TO_FIX}`;
    }
    // A route of its own media types may answer one status in several (a page, or the envelope for a body it could not read).
    const listed = Object.keys(response.content);
    const mediaType = listed.find((type) => contentType?.startsWith(type));
    if (mediaType === undefined) return `${where} answered ${status} as ${contentType}, the document says ${listed.join(' or ')}. ${HOW_TO_FIX}`;
    if (mediaType !== 'application/json') return null;
    const validate = validatorAt(`/${pointer('paths', template!, method.toLowerCase(), 'responses', String(status), 'content', mediaType, 'schema')}`);
    if (validate(body)) return null;
    const error = validate.errors?.[0];
    const detail = error ? `${error.instancePath || '(the body)'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}` : 'does not match';
    return `${where} answered ${status}, which does not match the document: ${detail}. The body: ${JSON.stringify(body)?.slice(0, 500)}. ${HOW_TO_FIX}`;
  };

  const webhookNames = Object.keys(document.webhooks);
  const problemWithWebhook = (body: unknown): string | null => {
    const event = isObject(body) ? body.event : undefined;
    const candidates = webhookNames.filter((name) => name === event || name === `legacy.${String(event)}` || name === 'callback');
    const failures: string[] = [];
    for (const name of candidates) {
      const validate = validatorAt(`/${pointer('webhooks', name, 'post', 'requestBody', 'content', 'application/json', 'schema')}`);
      if (validate(body)) return null;
      const error = validate.errors?.[0];
      failures.push(`${name}: ${error?.instancePath ?? ''} ${error?.message ?? ''} ${JSON.stringify(error?.params ?? {})}`);
    }
    return `a webhook (${String(event)}) does not match the document's webhooks (${failures.join('; ') || 'no webhook of that name'}): ${JSON.stringify(body).slice(0, 500)}. Describe it in src/http/codecs/responses/webhook-payloads.ts, then \`npm run openapi\`.`;
  };

  return { problemWithResponse, problemWithWebhook, document };
};

let contract: Contract | null = null;

/** The contract of the document as the code describes it now (built once per test process). */
export const openApiContract = (): Contract => {
  contract ??= build();
  return contract;
};
