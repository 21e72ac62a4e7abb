import type { OpenApiDocument } from '../http/openapi/openapi-document';
import type { RouteDocs } from '../http/openapi/operation-doc';
import { describeApi, joinedRouteDocs } from '../http/openapi/public-api-doc';
import { serviceRouteDocs } from '../http/openapi/service-routes-doc';
import { capabilities } from './index';

/**
 * Every public route's description: the service's own routes (health, this document) and each capability's
 * `apiDocs`, the registries beside its routers. `npm run openapi` writes the document from this;
 * test/http/openapi-document.spec.ts fails while a route a capability serves is not described by it.
 */
export const publicRouteDocs: RouteDocs = joinedRouteDocs([serviceRouteDocs, ...capabilities.flatMap((capability) => capability.apiDocs ?? [])]);

/** The document and what could not be described (empty when all is well: the tests check it). */
export const describePublicApi = (): { document: OpenApiDocument; problems: string[] } => describeApi(publicRouteDocs);

let built: OpenApiDocument | null = null;

/** The document the service serves at /openapi.json, built once. */
export const publicApiDocument = (): OpenApiDocument => {
  built ??= describePublicApi().document;
  return built;
};
