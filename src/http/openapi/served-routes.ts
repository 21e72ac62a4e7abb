import type Router from '@koa/router';

/** `/v2/bots/:bot_id/` as the document writes it: `/v2/bots/{bot_id}`. */
export const templateOf = (koaPath: string): string => {
  const path = koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

/** Every route the routers serve, as `METHOD /path/{param}` (HEAD goes with GET). */
export const servedRoutes = (routers: readonly Router<any, any>[]): string[] =>
  [
    ...new Set(
      routers.flatMap((router) => router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${templateOf(String(layer.path))}`))),
    ),
  ].sort();
