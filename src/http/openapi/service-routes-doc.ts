import * as t from 'io-ts';
import { legacyAnswer, type RouteDocs } from '../openapi/operation-doc';

/** The service's own routes (openapi-router.ts), answered without a key. */
export const serviceRouteDocs: RouteDocs = {
  'GET /health': {
    operationId: 'health',
    tag: 'Service',
    summary: 'Whether the service answers',
    noKey: true,
    responses: {
      200: legacyAnswer('It answers; `projections_position` is how far its read models have read the event log.', t.type({ status: t.literal('ok'), projections_position: t.union([t.string, t.null]) })),
    },
  },
  'GET /openapi.json': {
    operationId: 'openApiDocument',
    tag: 'Service',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API; `/docs` shows it as a reference page.',
    noKey: true,
    responses: { 200: legacyAnswer('The document.', t.UnknownRecord) },
  },
  'GET /docs': {
    operationId: 'apiReference',
    tag: 'Service',
    summary: 'The API reference page',
    description: 'This document, browsable (Swagger UI, served by the service itself).',
    noKey: true,
    responses: { 200: { description: 'An HTML page.', schema: { type: 'string' }, envelope: false, mediaType: 'text/html' } },
  },
};

/** Routes the service serves that are no operation of the API, and why. */
export const UNDESCRIBED_ROUTES: Readonly<Record<string, string>> = {
  'GET /docs/assets/{file}': "the reference page's own scripts and styles",
};
