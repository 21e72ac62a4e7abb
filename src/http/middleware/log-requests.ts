import { randomUUID } from 'node:crypto';
import type Logger from 'bunyan';
import type Koa from 'koa';
import type { AppState } from '../app-context';

const acceptableRequestId = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * One JSON line per request. Only the method, the path (never the query or headers, which may carry
 * keys), the status, the time taken and the team are logged.
 */
export const logRequests = (log: Logger): Koa.Middleware<AppState> => async (ctx, next) => {
  const offered = ctx.get('x-request-id');
  const requestId = acceptableRequestId.test(offered) ? offered : randomUUID();
  ctx.state.requestId = requestId;
  ctx.state.log = log.child({ req_id: requestId });
  ctx.set('x-request-id', requestId);
  const started = performance.now();
  try {
    await next();
  } finally {
    ctx.state.log.info(
      {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        team_id: ctx.state.caller?.team_id,
      },
      'request',
    );
  }
};
