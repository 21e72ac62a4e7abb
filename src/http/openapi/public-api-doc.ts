import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';
import type { RouteDocs } from './operation-doc';
import { webhookDocs } from './webhooks-doc';

/** Joins the routers' descriptions; a route described twice is a mistake, not an override. */
export const joinedRouteDocs = (parts: readonly RouteDocs[]): RouteDocs => {
  const all: Record<string, RouteDocs[string]> = {};
  for (const part of parts) {
    for (const [key, doc] of Object.entries(part)) {
      if (all[key] !== undefined) throw new Error(`${key} is described twice`);
      all[key] = doc;
    }
  }
  return all;
};

const TAGS = [
  { name: 'Bots', description: 'Bots sent into meetings at once (v2).' },
  { name: 'Scheduled bots', description: 'Bots that join at a later time (v2).' },
  { name: 'Webhook endpoints', description: "The team's webhook endpoints and their deliveries (v2)." },
  { name: 'Storage', description: "The team's own S3 buckets for its bots' artifacts (v2)." },
  { name: 'Calendars', description: 'Google and Microsoft calendars whose events get bots (v2).' },
  { name: 'Signed-in bots', description: "tm and mt workspaces and logins: the accounts the team's bots sign in with, in pools (v2)." },
  { name: 'mt SSO (identity provider)', description: "Our SAML identity provider of each mt workspace: public endpoints that Google and the bots' browsers call, without the API key." },
  { name: 'VC credentials', description: "The team's vc OAuth connections and SDK credentials, with which vc bots join as a signed-in app (v2)." },
  { name: 'Legacy bots', description: 'The legacy bot API at the root paths.' },
  { name: 'Legacy calendars', description: 'The legacy calendar API at the root paths.' },
  { name: 'Legacy VC OAuth connections', description: 'The legacy vc OAuth connections at the root paths.' },
  { name: 'Service', description: 'The service itself: health, this document.' },
  { name: 'Webhooks (v2)', description: "What the service sends to endpoints and callbacks for v2 bots and calendars, and about the team's logins and credentials." },
  { name: 'Webhooks (legacy)', description: 'What the service sends for bots created through the legacy API.' },
];

const version = (): string => (JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;

/**
 * The document of these routes (the capabilities' `apiDocs` and the service's own: src/capabilities/api-document.ts)
 * and the webhooks, with what could not be described (empty when all is well: the tests check it).
 */
export const describeApi = (routes: RouteDocs): { document: OpenApiDocument; problems: string[] } =>
  buildOpenApiDocument(routes, webhookDocs, { version: version(), tags: TAGS });
