import { readFileSync } from 'node:fs';
import path from 'node:path';
import { calendarRouteDocs } from '../calendars/calendar-routes-doc';
import { legacyBotsRouteDocs } from '../legacy/bots-router-doc';
import { botsRouteDocs } from '../v2/bots-router-doc';
import { redeliveryRouteDocs } from '../v2/redelivery-router-doc';
import { scheduledBotsRouteDocs } from '../v2/scheduled-bots-router-doc';
import { storageConfigRouteDocs } from '../v2/storage-config-router-doc';
import { webhooksRouteDocs } from '../v2/webhooks-router-doc';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';
import type { RouteDocs } from './operation-doc';
import { serviceRouteDocs } from './service-routes-doc';
import { webhookDocs } from './webhooks-doc';

/** Joins the routers' descriptions; a route described twice is a mistake, not an override. */
const joined = (...parts: readonly RouteDocs[]): RouteDocs => {
  const all: Record<string, RouteDocs[string]> = {};
  for (const part of parts) {
    for (const [key, doc] of Object.entries(part)) {
      if (all[key] !== undefined) throw new Error(`${key} is described twice`);
      all[key] = doc;
    }
  }
  return all;
};

/**
 * Every public route's description, one registry per router (`*-router-doc.ts` beside it). A new router's
 * registry is added here; test/http/openapi-document.spec.ts fails until every route the app serves is.
 */
export const publicRouteDocs: RouteDocs = joined(
  serviceRouteDocs,
  botsRouteDocs,
  scheduledBotsRouteDocs,
  redeliveryRouteDocs,
  webhooksRouteDocs,
  storageConfigRouteDocs,
  legacyBotsRouteDocs,
  calendarRouteDocs,
);

const TAGS = [
  { name: 'Bots', description: 'Bots sent into meetings at once (v2).' },
  { name: 'Scheduled bots', description: 'Bots that join at a later time (v2).' },
  { name: 'Webhook endpoints', description: "The team's webhook endpoints and their deliveries (v2)." },
  { name: 'Storage', description: "The team's own S3 buckets for its bots' artifacts (v2)." },
  { name: 'Calendars', description: 'Google and Microsoft calendars whose events get bots (v2).' },
  { name: 'Legacy bots', description: 'The legacy bot API at the root paths.' },
  { name: 'Legacy calendars', description: 'The legacy calendar API at the root paths.' },
  { name: 'Service', description: 'The service itself: health, this document.' },
  { name: 'Webhooks (v2)', description: 'What the service sends to endpoints and callbacks for v2 bots and calendars.' },
  { name: 'Webhooks (legacy)', description: 'What the service sends for bots created through the legacy API.' },
];

const version = (): string => (JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;

/** The document and what could not be described (empty when all is well: the tests check it). */
export const describePublicApi = (): { document: OpenApiDocument; problems: string[] } =>
  buildOpenApiDocument(publicRouteDocs, webhookDocs, { version: version(), tags: TAGS });

let built: OpenApiDocument | null = null;

/** The document the service serves at /openapi.json, built once. */
export const publicApiDocument = (): OpenApiDocument => {
  built ??= describePublicApi().document;
  return built;
};
