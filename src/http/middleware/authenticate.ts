import type Koa from 'koa';
import type { ReadStore } from '../../adapters/read-store/port';
import { hashApiKey } from '../../commands/team-commands';
import { API_KEYS, type ApiKeyView } from '../../projections/api-key-view';
import { forbidden, unauthorized } from '../api-error';
import type { AppState } from '../app-context';
import { sendingAccessAllows } from './sending-access';

/** Resolves `x-service-api-key` to its team and permission; Sending Access keys only reach their five POSTs. */
export const authenticate = (readStore: ReadStore): Koa.Middleware<AppState> => async (ctx, next) => {
  const presented = ctx.get('x-service-api-key');
  if (!presented) throw unauthorized();
  const stored = await readStore.get<ApiKeyView>(API_KEYS, hashApiKey(presented));
  if (!stored || stored.doc.revoked) throw unauthorized();
  const { team_id, key_id, permission } = stored.doc;
  ctx.state.caller = { team_id, key_id, permission };
  if (permission === 'sending' && !sendingAccessAllows(ctx.method, ctx.path)) throw forbidden();
  await next();
};
