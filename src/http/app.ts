import type Logger from 'bunyan';
import Koa from 'koa';
import compose from 'koa-compose';
import { adminRouter } from './admin/admin-router';
import type { AppState } from './app-context';
import { authenticate } from './middleware/authenticate';
import { allowedMethodsInEnvelope, errorEnvelope } from './middleware/error-envelope';
import { limitRate } from './middleware/limit-rate';
import { literalPathsFirst } from './middleware/literal-paths';
import { logRequests } from './middleware/log-requests';
import type { RateLimiter } from './middleware/rate-limiter';
import type Router from '@koa/router';
import type { ReadStore } from '../adapters/read-store/port';
import type { CommandDeps } from '../commands/command-deps';
import type { ReadModelProgress } from '../projections/read-model-progress';
import type { OpenApiDocument } from './openapi/openapi-document';
import { openApiRouter, refuseOtherMethods } from './openapi/openapi-router';

export interface AppDeps {
  readonly log: Logger;
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly adminToken: string | undefined;
  readonly rebuildProjections: () => Promise<unknown>;
  /** the capabilities' routers of the public API, mounted after authentication and the rate limit */
  readonly publicRouters: readonly Router<AppState>[];
  /** the OpenAPI document of those routers, served with its reference page where they are (not on a worker-only process) */
  readonly apiDocument?: () => OpenApiDocument;
  /** Routers of the public API that take no key (our SAML identity provider), mounted before authentication. */
  readonly openRouters?: readonly Router<AppState>[];
  /** Routers outside the public API (internal bot API, artifact downloads), mounted before authentication. */
  readonly unauthenticatedRouters?: readonly Koa.Middleware<AppState, any>[];
  /** the per-team rate limit of writes, counted where every api instance counts */
  readonly rateLimiter: RateLimiter;
  /**
   * Requests wait for the read models to reach the log first: several api instances append to one log and
   * each projects it on its own, so a GET on one must see a POST just answered by another (and a key just
   * issued through one must open the other).
   */
  readonly freshReads?: boolean;
  /** holds every request until the service has started (the server listens first, to learn its address) */
  readonly ready?: Promise<void>;
}

/** How long a request waits for this instance's read models to reach the shared log before it goes on anyway. */
const FRESH_READ_WAIT_MS = 2_000;

const requestsWaitForTheLog =
  (progress: ReadModelProgress): Koa.Middleware<AppState> =>
  async (_ctx, next) => {
    await progress.waitForLog?.(FRESH_READ_WAIT_MS);
    await next();
  };

/** The routes answered without a key: health, and where the API is served its OpenAPI document and reference page. */
export const serviceRouter = (deps: Pick<AppDeps, 'projections' | 'apiDocument'>): Router<AppState> =>
  openApiRouter({
    ...(deps.apiDocument ? { document: deps.apiDocument } : {}),
    health: () => ({ status: 'ok', projections_position: deps.projections.position?.toString() ?? null }),
  });

export const buildApp = (deps: AppDeps): Koa<AppState> => {
  const app = new Koa<AppState>();
  app.proxy = false;
  app.use(logRequests(deps.log));
  app.use(errorEnvelope());
  app.use(async (_ctx, next) => {
    await deps.ready;
    await next();
  });
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
  // Another method on an open route is its 405, not the authentication's 401.
  for (const router of deps.openRouters ?? []) app.use(router.routes()).use(refuseOtherMethods(router));
  for (const router of deps.unauthenticatedRouters ?? []) app.use(router);

  const routers = deps.publicRouters;
  const publicApi = compose<Koa.ParameterizedContext<AppState>>([
    ...(deps.freshReads ? [requestsWaitForTheLog(deps.projections)] : []),
    authenticate(deps.readStore),
    limitRate(deps.readStore, deps.rateLimiter),
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
