import type Router from '@koa/router';
import type Koa from 'koa';
import { methodNotAllowed } from '../api-error';
import type { AppState } from '../app-context';

const withoutTrailingSlash = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * A path that is a route of its own (`/v2/bots/batch`, `/bots/meeting_data`, `/calendars/raw`) is that
 * resource whatever the method: another method is a 405 naming the methods it has, never a request to the
 * route with a parameter beside it (`GET /v2/bots/:bot_id` reading `batch` as a bot id and answering 400).
 */
export const literalPathsFirst = (routers: readonly Router<AppState, any>[]): Koa.Middleware<AppState> => {
  const methods = new Map<string, Set<string>>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (layer.paramNames.length > 0 || layer.methods.length === 0) continue;
      const path = withoutTrailingSlash(String(layer.path));
      const known = methods.get(path) ?? new Set<string>();
      for (const method of layer.methods) known.add(method);
      methods.set(path, known);
    }
  }
  return async (ctx, next) => {
    const allowed = methods.get(withoutTrailingSlash(ctx.path));
    if (allowed !== undefined && !allowed.has(ctx.method) && ctx.method !== 'OPTIONS') {
      throw methodNotAllowed(ctx.method, ctx.path, [...allowed].join(', '));
    }
    await next();
  };
};
