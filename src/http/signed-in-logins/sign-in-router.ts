import Router from '@koa/router';
import * as t from 'io-ts';
import { TICKET_LIFETIME_MS, type SignInTickets } from '../../adapters/signing/sign-in-tickets';
import type { Signer } from '../../adapters/signing/signer';
import type { BotContacts } from '../../commands/bot-contacts';
import { recordSignInResult } from '../../commands/signed-in-logins/finish-sign-in';
import { passwordOf } from '../../commands/signed-in-logins/login-secrets';
import { startSignIn } from '../../commands/signed-in-logins/start-sign-in';
import { loginQueries } from '../../projections/signed-in-logins/login-queries';
import { SignInFailureKind } from '../../domain/signed-in-logins/sign-in-failures';
import { conflict, orThrow } from '../api-error';
import { decodeWith } from '../codecs/codec-kit';
import { requireBotToken, type BotState } from '../internal/internal-router';
import { readJsonBody } from '../read-json-body';
import type { SignedInLoginRouterDeps } from './deps';

export interface SignInRouterDeps extends SignedInLoginRouterDeps {
  readonly signer: Signer;
  /** the call tells the service the bot is alive, as any of its internal calls does */
  readonly contacts: BotContacts;
  readonly tickets: SignInTickets;
}

const SignInResultBody = t.union([
  t.type({ ok: t.literal(true) }),
  t.type({ ok: t.literal(false), kind: SignInFailureKind, message: t.refinement(t.string, (s) => s.length <= 2000, 'Message') }),
]);

/**
 * The bot's side of signing in (internal bot API, the bot's own token): `POST /internal/bots/{id}/sign-in`
 * leases a session of its login and answers what the bot signs in with, only to that bot and only while it
 * runs (the tm password, opened here and nowhere else; for mt a one-time ticket for our identity
 * provider); or, when no login can take it, what it does instead. `POST …/sign-in/result` reports how it went.
 */
export const signInRouter = (deps: SignInRouterDeps): Router<BotState> => {
  const router = new Router<BotState>({ prefix: '/internal/bots/:bot_id/sign-in' });
  router.use(requireBotToken(deps));
  const logins = loginQueries(deps.readStore);

  router.post('/', async (ctx) => {
    const botId = ctx.state.botId;
    const start = await startSignIn({ commands: deps.commands, logins }, botId);
    if (start.kind === 'refused') throw conflict('FST_ERR_BOT_STATUS', start.message);
    await deps.projections.waitForPosition(start.position);
    if (start.kind === 'saturated') {
      ctx.body = start.fallback === 'anonymous'
        ? { outcome: 'anonymous', message: start.message }
        : { outcome: 'fail', error_code: start.error_code, error_message: start.message };
      return;
    }
    const { view: login, workspace } = start.login;
    ctx.set('cache-control', 'no-store');
    if (login.platform === 'tm') {
      const password = await passwordOf(deps, 'tm', login.credential_id);
      ctx.body = { outcome: 'sign_in', platform: 'tm', credential_id: login.credential_id, email: login.email, password: password ?? '' };
      return;
    }
    const ticket = deps.tickets.mint({
      bot_id: botId,
      credential_id: login.credential_id,
      workspace_id: workspace.workspace_id,
      ticket_id: deps.commands.newId(),
      expires_at_ms: deps.commands.clock().getTime() + TICKET_LIFETIME_MS,
    });
    ctx.body = { outcome: 'sign_in', platform: 'mt', credential_id: login.credential_id, email: login.email, sso_ticket: ticket };
  });

  router.post('/result', async (ctx) => {
    const result = orThrow(decodeWith(SignInResultBody, 'body', await readJsonBody(ctx)));
    const recorded = await recordSignInResult({ commands: deps.commands, logins }, ctx.state.botId, result);
    await deps.projections.waitForPosition(recorded.position);
    ctx.body = { error_code: recorded.error_code };
  });

  return router;
};
