import type Koa from 'koa';
import type { ReadStore } from '../../adapters/read-store/port';
import { TEAMS, type TeamView } from '../../projections/team-view';
import { tooManyRequests } from '../api-error';
import type { AppState } from '../app-context';
import type { RateLimiter } from './rate-limiter';

const DEFAULT_RATE_PER_SECOND = 10;

/** Per team, not per key; GET is never limited (the spec). */
export const limitRate = (readStore: ReadStore, limiter: RateLimiter): Koa.Middleware<AppState> => async (ctx, next) => {
  const caller = ctx.state.caller;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && caller) {
    const team = await readStore.get<TeamView>(TEAMS, caller.team_id);
    const verdict = await limiter.take(caller.team_id, team?.doc.rate_limit_per_second ?? DEFAULT_RATE_PER_SECOND);
    if (!verdict.allowed) {
      ctx.set('Retry-After', String(verdict.retryAfterSeconds));
      throw tooManyRequests('FST_ERR_TOO_MANY_REQUESTS', verdict.retryAfterSeconds, 'Rate limit exceeded, retry later');
    }
  }
  await next();
};
