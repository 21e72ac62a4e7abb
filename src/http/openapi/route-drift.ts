import type { RouteDocs } from './operation-doc';

/**
 * What differs between the routes the app serves and the routes the document describes, each as a sentence
 * saying what to do where: the drift test prints them.
 */
export const routeDrift = (served: readonly string[], documented: RouteDocs, undescribed: Readonly<Record<string, string>>): string[] => {
  const described = new Set(Object.keys(documented));
  const servedSet = new Set(served);
  const missing = served
    .filter((route) => !described.has(route) && undescribed[route] === undefined)
    .map(
      (route) =>
        `${route} is served but not described: add '${route}': { operationId, tag, summary, body?, query?, responses, errors? } to the ` +
        "registry beside its router (`<router>-doc.ts`, listed in its capability's `apiDocs`, src/capabilities/<name>.ts), its request codec's leaves with " +
        'schemas and its answer as a codec in src/http/codecs/responses/; then `npm run openapi` (docs/decisions.md, issue 24)',
    );
  const stale = [...described]
    .filter((route) => !servedSet.has(route))
    .map((route) => `${route} is described but no router serves it: remove it from its registry (\`*-router-doc.ts\`), then \`npm run openapi\``);
  return [...missing, ...stale];
};
