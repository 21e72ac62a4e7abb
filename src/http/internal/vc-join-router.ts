import Router from '@koa/router';
import type { Signer } from '../../adapters/signing/signer';
import type { BotContacts } from '../../commands/bot-contacts';
import type { CommandDeps } from '../../commands/command-deps';
import { joinCredentialsOf, type JoinCredentialDeps } from '../../commands/vc-joins/join-credentials';
import { requireBotToken, type BotState } from './internal-router';

export interface VcJoinRouterDeps {
  readonly join: JoinCredentialDeps;
  readonly signer: Signer;
  /** the call tells the service the bot is alive, as any of its internal calls does */
  readonly contacts: BotContacts;
  readonly commands: CommandDeps;
}

/**
 * `POST /internal/bots/{bot_id}/vc-join`: a vc bot asks, with its own token, for what its join needs
 * (contract/bot-contract.ts VcJoinCredentials); 422 `{error_code, message}` when it cannot be had. Only that
 * bot's own short-lived tokens and signature: never a stored secret.
 */
export const vcJoinRouter = (deps: VcJoinRouterDeps): Router<BotState> => {
  const router = new Router<BotState>({ prefix: '/internal/bots/:bot_id' });
  router.use(requireBotToken(deps));
  router.post('/vc-join', async (ctx) => {
    const answer = await joinCredentialsOf(deps.join, ctx.state.botId);
    ctx.set('cache-control', 'no-store');
    if (answer.ok) {
      ctx.body = answer.credentials;
      return;
    }
    ctx.state.log?.info({ bot_id: ctx.state.botId, error_code: answer.refusal.error_code }, 'no vc join credentials');
    ctx.status = 422;
    ctx.body = answer.refusal;
  });
  return router;
};
