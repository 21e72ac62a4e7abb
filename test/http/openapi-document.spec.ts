import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { capabilities } from '../../src/capabilities';
import { describePublicApi, publicRouteDocs } from '../../src/capabilities/api-document';
import type { ServiceContext } from '../../src/capabilities/capability';
import { webhookEventTypes } from '../../src/domain/webhooks/webhook-event-types';
import { serviceRouter, type AppDeps } from '../../src/http/app';
import { joinedRouteDocs } from '../../src/http/openapi/public-api-doc';
import { routeDrift } from '../../src/http/openapi/route-drift';
import { servedRoutes } from '../../src/http/openapi/served-routes';
import { serviceRouteDocs, UNDESCRIBED_ROUTES } from '../../src/http/openapi/service-routes-doc';
import { CLIENT_TYPES_FILE, DOCUMENT_FILE, clientTypesText, documentText } from '../../scripts/openapi';
import { request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

/** Routers only keep their dependencies for later: built with stand-ins, they list their routes. */
const standIn: any = new Proxy(() => standIn, { get: (_target, key) => (key === Symbol.toPrimitive ? () => 'stand-in' : standIn), ownKeys: () => [] });

/** A process with every role, its stores stood in for: each capability builds all its public routers (nothing starts). */
const everyRole: ServiceContext = new Proxy({ config: {}, overrides: {}, roles: { api: true, worker: true } } as Partial<ServiceContext>, {
  get: (known, key) => (key in known ? known[key as keyof ServiceContext] : standIn),
}) as ServiceContext;

/** What each capability serves behind the key and openly (no key), beside what it describes (its `apiDocs`). */
const capabilityRoutes = () =>
  capabilities.map((capability) => {
    const parts = capability.build(everyRole);
    const behindKey = servedRoutes(parts.publicRouters ?? []);
    const open = servedRoutes(parts.openRouters ?? []);
    return { name: capability.name, behindKey, open, served: [...behindKey, ...open], described: joinedRouteDocs(capability.apiDocs ?? []) };
  });

const serviceRoutes = (): string[] => servedRoutes([serviceRouter({ projections: standIn, apiDocument: standIn } as Pick<AppDeps, 'projections' | 'apiDocument'>)]);

const root = path.join(__dirname, '../..');

const filesUnder = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    return statSync(file).isDirectory() ? filesUnder(file) : file.endsWith('.ts') ? [file] : [];
  });

/** Not the public API: the operators' and the bots' own routes, and the providers' calendar notices. */
const NOT_PUBLIC = ['admin', 'internal', 'artifacts', 'calendar-push'].map((folder) => path.join(root, 'src/http', folder) + path.sep);

describe('the OpenAPI document (docs/openapi.json): it cannot drift from the routes', () => {
  it('describes every route each capability serves, in that capability\'s apiDocs, and only those', () => {
    const routes = capabilityRoutes();
    const all = routes.flatMap((capability) => capability.served);
    const routesOf = ['POST /v2/bots', 'GET /calendar_events/{uuid}', 'POST /v2/vc-credentials', 'GET /vc_oauth_connections', 'PUT /v2/storage-config'];
    for (const route of [...routesOf, 'PATCH /v2/tm-logins/{credential_id}', 'DELETE /v2/bots/{bot_id}/delete-data', 'POST /v2/mt-sso/{workspace_id}/sso']) {
      assert.ok(all.includes(route), `the walk finds the capabilities' routes (${route}): ${all.join(', ')}`);
    }
    for (const capability of routes) {
      assert.deepEqual(routeDrift(capability.served, capability.described, {}), [], `capability ${capability.name} (src/capabilities/${capability.name}.ts)`);
      // The document says which routes need the key as the mounting does: openRouters are served before authentication.
      const keyless = (route: string) => capability.described[route]?.noKey === true;
      assert.deepEqual(capability.behindKey.filter(keyless), [], `capability ${capability.name}: routes behind the key described as needing none`);
      assert.deepEqual(capability.open.filter((route) => !keyless(route)), [], `capability ${capability.name}: open routes (no key) not described with noKey`);
    }
    assert.deepEqual(routeDrift(serviceRoutes(), serviceRouteDocs, UNDESCRIBED_ROUTES), [], 'the service\'s own routes (openapi-router.ts)');
  });


  it('is served only where the API is: a worker-only process (no document given) answers its health alone', () => {
    assert.deepEqual(servedRoutes([serviceRouter({ projections: standIn })]), ['GET /health']);
    assert.ok(serviceRoutes().includes('GET /openapi.json') && serviceRoutes().includes('GET /docs'));
  });

  it('says what to add where when a route is served but not described, or described but not served', () => {
    const drift = routeDrift(['GET /v2/bots', 'GET /v2/bots/{bot_id}/status'], { 'GET /v2/bots': publicRouteDocs['GET /v2/bots']!, 'DELETE /v2/gone': publicRouteDocs['GET /v2/bots']! }, {});
    assert.equal(drift.length, 2);
    assert.match(drift[0]!, /^GET \/v2\/bots\/\{bot_id\}\/status is served but not described: add 'GET \/v2\/bots\/\{bot_id\}\/status': .* registry beside its router/);
    assert.match(drift[1]!, /^DELETE \/v2\/gone is described but no router serves it/);
  });

  it('describes every request, answer and webhook from the codecs without a gap', () => {
    assert.deepEqual(describePublicApi().problems, []);
  });

  it('describes the body of every webhook event an endpoint can subscribe to', () => {
    const { document } = describePublicApi();
    const missing = webhookEventTypes.filter((event) => document.webhooks?.[event] === undefined);
    assert.deepEqual(missing, [], 'each gets a codec in src/http/codecs/responses/webhook-payloads.ts and an entry in src/http/openapi/webhooks-doc.ts');
  });

  it('is committed as `npm run openapi` writes it, and so are the typed client\'s types', () => {
    const document = documentText();
    assert.ok(readFileSync(DOCUMENT_FILE, 'utf8') === document, 'docs/openapi.json is not what the code describes: run `npm run openapi` and commit the result');
    assert.ok(readFileSync(CLIENT_TYPES_FILE, 'utf8') === clientTypesText(document), 'client/api-types.ts is stale: run `npm run openapi` and commit the result');
  });

  it('names every error code the public routes can answer', () => {
    const text = readFileSync(DOCUMENT_FILE, 'utf8');
    const publicFiles = filesUnder(path.join(root, 'src/http')).filter((file) => !NOT_PUBLIC.some((folder) => file.startsWith(folder)));
    const codes = new Set(publicFiles.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'(FST_ERR_[A-Z0-9_]+)'/g)].map((m) => m[1]!)));
    assert.ok(codes.size > 20, `the scan finds the codes (${[...codes].join(', ')})`);
    const missing = [...codes].filter((code) => !text.includes(`"${code}"`) && !text.includes(`\`${code}\``));
    assert.deepEqual(missing, [], 'each code goes into the `errors` of the routes that answer it (their `*-router-doc.ts`), or, if every route may, into ERROR_ENVELOPE (openapi-document.ts)');
  });

  it('holds every example to its own schema', () => {
    const { document } = describePublicApi();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(document, 'doc');
    const resolve = (schema: unknown) => JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components'));
    let checked = 0;
    for (const [route, item] of Object.entries<any>(document.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const body = op.requestBody?.content?.['application/json'];
        for (const [name, example] of Object.entries<any>(body?.examples ?? {})) {
          const validate = ajv.compile(resolve(body.schema));
          assert.ok(validate(example.value), `${method.toUpperCase()} ${route} example ${name}: ${ajv.errorsText(validate.errors)}`);
          checked += 1;
        }
        for (const [status, response] of Object.entries<any>(op.responses)) {
          const content = response.content?.['application/json'];
          if (content?.example === undefined) continue;
          const validate = ajv.compile(resolve(content.schema));
          assert.ok(validate(content.example), `${method.toUpperCase()} ${route} ${status} example: ${ajv.errorsText(validate.errors)}`);
          checked += 1;
        }
      }
    }
    assert.ok(checked >= 20, `${checked} examples checked`);
  });
});

describe('the OpenAPI document served: GET /openapi.json and the reference page GET /docs', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(async () => {
    await t.stop();
  });

  it('serves the committed document without a key', async () => {
    const response = await request(t.url, 'GET', '/openapi.json');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(response.body, JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')));
  });

  it('serves the reference page and its assets from the service itself, with a policy that allows nothing else', async () => {
    const page = await request(t.url, 'GET', '/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const sources = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(sources.length >= 3 && sources.every((s) => s.startsWith('/docs/assets/')), `only the service's own assets: ${sources.join(', ')}`);
    for (const source of sources) assert.equal((await request(t.url, 'GET', source)).status, 200, source);
    const outside = await request(t.url, 'GET', '/docs/assets/..%2F..%2Fpackage.json');
    assert.equal(outside.status, 404);
    assert.equal((await request(t.url, 'GET', '/docs/assets/index.html')).body.code, 'FST_ERR_NOT_FOUND');
  });

  it('answers another method on its own routes with 405 and Allow, not 401', async () => {
    const response = await request(t.url, 'POST', '/openapi.json');
    assert.equal(response.status, 405);
    assert.equal(response.body.code, 'FST_ERR_METHOD_NOT_ALLOWED');
    assert.match(response.headers.get('allow') ?? '', /GET/);
  });
});
