import type Logger from 'bunyan';
import type Koa from 'koa';
import type { Permission } from '../domain/team/team-events';

export interface Caller {
  readonly team_id: string;
  readonly key_id: string;
  readonly permission: Permission;
}

export interface AppState {
  requestId: string;
  log: Logger;
  caller?: Caller;
}

export type AppContext = Koa.ParameterizedContext<AppState>;

/** The caller of an authenticated route; the authentication middleware guarantees it is there. */
export const callerOf = (ctx: AppContext): Caller => {
  if (!ctx.state.caller) throw new Error('route mounted without authentication');
  return ctx.state.caller;
};
