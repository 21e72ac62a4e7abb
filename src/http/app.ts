import type Logger from 'bunyan';
import type Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import { adminRouter } from './admin/admin-router';
import type { CalendarApiDeps } from './calendars/calendar-operations';
import { calendarApiRouters } from './calendars/calendar-api-routers';
import type { AppState } from './app-context';
import { legacyBotsRouter } from './legacy/bots-router';
import { authenticate } from './middleware/authenticate';
import { allowedMethodsInEnvelope, errorEnvelope } from './middleware/error-envelope';
import { limitRate } from './middleware/limit-rate';
import { literalPathsFirst } from './middleware/literal-paths';
import { logRequests } from './middleware/log-requests';
import { RateLimiter } from './middleware/rate-limiter';
import { type BotsRouterDeps, botsRouter } from './v2/bots-router';
import { redeliveryRouter } from './v2/redelivery-router';
import { type StorageConfigRouterDeps, storageConfigRouter } from './v2/storage-config-router';
import { webhooksRouter } from './v2/webhooks-router';
import { openApiRouter, refuseOtherMethods } from './openapi/openapi-router';
import { publicApiDocument } from './openapi/public-api-doc';

export interface AppDeps extends BotsRouterDeps, StorageConfigRouterDeps {
  /** new webhook messages were queued: the delivery worker can look at once */
  readonly webhooksQueued: () => void;
  readonly log: Logger;
  readonly adminToken: string | undefined;
  readonly rebuildProjections: () => Promise<unknown>;
  /** Routers outside the public API (internal bot API, artifact downloads), mounted before authentication. */
  readonly unauthenticatedRouters?: readonly Koa.Middleware<AppState, any>[];
  /** the calendar API (legacy and v2), when the service runs calendar sync */
  readonly calendarApi?: CalendarApiDeps;
}

/**
 * The routers of the public API (behind the API key), in the order they are mounted. The OpenAPI document's
 * test walks their routes: every one must be described (src/http/openapi/public-api-doc.ts).
 */
export const publicApiRouters = (deps: AppDeps): Router<AppState, any>[] => [
  botsRouter(deps),
  redeliveryRouter({ ...deps, queued: deps.webhooksQueued }),
  webhooksRouter(deps),
  storageConfigRouter(deps),
  legacyBotsRouter(deps),
  ...(deps.calendarApi ? calendarApiRouters(deps.calendarApi) : []),
];

/** The routes answered without a key: health, the OpenAPI document and its reference page. */
export const serviceRouter = (deps: Pick<AppDeps, 'projections'>): Router<AppState, any> =>
  openApiRouter({
    document: publicApiDocument,
    health: () => ({ status: 'ok', projections_position: deps.projections.position?.toString() ?? null }),
  });

export const buildApp = (deps: AppDeps): Koa<AppState> => {
  const app = new Koa<AppState>();
  app.proxy = false;
  app.use(logRequests(deps.log));
  app.use(errorEnvelope());
  const service = serviceRouter(deps);
  app.use(service.routes()).use(refuseOtherMethods(service));

  if (deps.adminToken) {
    const admin = adminRouter({
      adminToken: deps.adminToken,
      commands: deps.commands,
      eventStore: deps.commands.eventStore,
      readStore: deps.readStore,
      projections: deps.projections,
      rebuild: deps.rebuildProjections,
    });
    app.use(admin.routes()).use(allowedMethodsInEnvelope(admin));
  }
  for (const router of deps.unauthenticatedRouters ?? []) app.use(router);

  const routers = publicApiRouters(deps);
  const publicApi = compose<Koa.ParameterizedContext<AppState>>([
    authenticate(deps.readStore),
    limitRate(deps.readStore, new RateLimiter(() => deps.commands.clock().getTime())),
    literalPathsFirst(routers),
    ...routers.map((router) => router.routes() as Koa.Middleware<AppState>),
    ...routers.map((router) => allowedMethodsInEnvelope(router)),
  ]);
  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/admin') || ctx.path.startsWith('/internal')) return next();
    return publicApi(ctx, next);
  });
  return app;
};
