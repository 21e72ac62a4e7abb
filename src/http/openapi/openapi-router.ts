import { readFileSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type Koa from 'koa';
import { ApiError, methodNotAllowed } from '../api-error';
import type { AppState } from '../app-context';
import type { OpenApiDocument } from './openapi-document';

/** swagger-ui-dist's own folder: the reference page's assets are served from it, never from a CDN. */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The page's settings, as a script of its own so that the page needs no inline script (CSP `script-src 'self'`). */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    displayRequestDuration: true,
    persistAuthorization: false,
    defaultModelsExpandDepth: 0,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Meeting bot service API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/** What /docs/assets serves: these files only, read once. */
const ASSETS: Readonly<Record<string, { readonly type: string; readonly body: () => Buffer | string }>> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: () => readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: () => readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js')) },
  'favicon-32x32.png': { type: 'image/png', body: () => readFileSync(path.join(SWAGGER_UI_DIR, 'favicon-32x32.png')) },
  'init.js': { type: 'text/javascript; charset=utf-8', body: () => INIT_SCRIPT },
};

/** Swagger UI styles its parts inline; everything else comes from this service. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

export interface OpenApiRouterDeps {
  /** absent: health only (a worker-only process serves no API to describe) */
  readonly document?: () => OpenApiDocument;
  readonly health: () => { readonly status: 'ok'; readonly projections_position: string | null };
}

/** `GET /openapi.json`, the reference page `GET /docs` and its assets, and `GET /health`: no key needed. */
export const openApiRouter = (deps: OpenApiRouterDeps): Router<AppState> => {
  const router = new Router<AppState>();
  const loaded = new Map<string, Buffer | string>();

  router.get('/health', (ctx) => {
    ctx.body = deps.health();
  });

  const document = deps.document;
  if (document === undefined) return router;

  router.get('/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = document();
  });

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });

  router.get('/docs/assets/:file', (ctx) => {
    const asset = ASSETS[ctx.params.file ?? ''];
    if (asset === undefined) throw new ApiError({ status: 404, code: 'FST_ERR_NOT_FOUND', message: `Route ${ctx.method}:${ctx.path} not found` });
    if (!loaded.has(ctx.params.file!)) loaded.set(ctx.params.file!, asset.body());
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = asset.type;
    ctx.body = loaded.get(ctx.params.file!);
  });

  return router;
};

/**
 * These paths are the service's, whatever the method: another method is a 405 naming the allowed ones,
 * never a question for the API key (mounted right after the router, before authentication).
 */
export const refuseOtherMethods = (router: Router<AppState, any>): Koa.Middleware<AppState> => async (ctx, next) => {
  const matched = router.match(ctx.path, ctx.method);
  if (matched.path.length === 0 || matched.route) return next();
  const allow = [...new Set(matched.path.flatMap((layer) => layer.methods))].join(', ');
  throw methodNotAllowed(ctx.method, ctx.path, allow);
};
