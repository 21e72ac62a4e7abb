import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type Koa from 'koa';
import { idpEndpoints, idpMetadataXml, parseAuthnRequest, signedLoginResponse, type AuthnRequest } from '../../adapters/saml/identity-provider';
import type { SignInTickets } from '../../adapters/signing/sign-in-tickets';
import { loadBot } from '../../commands/bot-commands';
import { signingKeyPairOf } from '../../commands/signed-in-logins/login-secrets';
import { handleLoginCommand } from '../../commands/signed-in-logins/login-streams';
import { isTerminal } from '../../domain/bot/bot-status';
import { LOGINS, type LoginView } from '../../projections/signed-in-logins/login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from '../../projections/signed-in-logins/workspace-view';
import type { AppState } from '../app-context';
import { normaliseUuid } from '../codecs/path-uuid';
import { decodeUtf8, readAtMost } from '../read-json-body';
import type { SignedInLoginRouterDeps } from './deps';
import { autoPostPage, botSignInPage, refusalPage, signedOutPage } from './sso-pages';

export interface MtSsoRouterDeps extends SignedInLoginRouterDeps {
  readonly tickets: SignInTickets;
}

const MAX_FORM_BYTES = 256 * 1024;

const readForm = async (ctx: Koa.Context): Promise<Record<string, string>> => {
  const text = decodeUtf8(await readAtMost(ctx.req, MAX_FORM_BYTES));
  return Object.fromEntries(new URLSearchParams(text));
};

const html = (ctx: Koa.Context, status: number, body: string) => {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('cache-control', 'no-store');
  ctx.body = body;
};

const NOT_A_BOT = 'Only a meeting bot of this team, during its own run, can sign in here: the one-time credential is missing, wrong, used or expired.';

/**
 * `/v2/mt-sso/{workspace_id}/*`: the SAML 2.0 identity provider an mt workspace's SSO profile points at.
 * `metadata`; `sso` takes Google's AuthnRequest by HTTP-Redirect (GET) or HTTP-POST, shows the bot's sign-in
 * form, and for a valid one-time ticket of a bot holding a session of a login of this workspace answers
 * with the signed Response posted to Google; `signed-out`. No API key: Google and the bot's browser call it.
 */
export const mtSsoRouter = (deps: MtSsoRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/mt-sso/:workspace_id' });

  const workspaceOf = async (ctx: Koa.Context): Promise<WorkspaceView | null> => {
    const id = normaliseUuid(ctx.params.workspace_id);
    const view = id === null ? null : (await deps.readStore.get<WorkspaceView>(LOGIN_WORKSPACES, id))?.doc;
    return view && view.platform === 'mt' && !view.deleted && view.certificate_pem !== null ? view : null;
  };
  const endpointsOf = (workspace: WorkspaceView) => idpEndpoints(deps.publicUrl(), workspace.workspace_id);

  router.get('/metadata', async (ctx) => {
    const workspace = await workspaceOf(ctx);
    if (!workspace) return html(ctx, 404, refusalPage('Unknown workspace', 'No mt workspace has this identity provider.'));
    ctx.type = 'application/samlmetadata+xml';
    ctx.body = idpMetadataXml(endpointsOf(workspace), workspace.certificate_pem!);
  });

  // Like every page of the identity provider, only a workspace's: any other path is no identity provider of ours.
  router.get('/signed-out', async (ctx) => {
    if (!(await workspaceOf(ctx))) return html(ctx, 404, refusalPage('Unknown workspace', 'No mt workspace has this identity provider.'));
    html(ctx, 200, signedOutPage());
  });

  /** Google's request, read and checked: null after answering the refusal itself. */
  const authnRequestOf = async (ctx: Koa.Context, workspace: WorkspaceView, binding: 'redirect' | 'post', fields: Record<string, string>): Promise<AuthnRequest | null> => {
    const parsed = await parseAuthnRequest(endpointsOf(workspace), workspace.certificate_pem!, workspace.domain, binding === 'redirect' ? { binding, query: fields } : { binding, body: fields });
    if (!parsed.ok) {
      html(ctx, 400, refusalPage('This sign-in request cannot be used', parsed.reason));
      return null;
    }
    return parsed.request;
  };

  /** The ticket's bot signs in with its login: a one-time assertion of the login's email, or a refusal. */
  const assert = async (ctx: Koa.Context, workspace: WorkspaceView, request: AuthnRequest, ticket: string) => {
    const claims = deps.tickets.read(ticket, deps.commands.clock().getTime());
    const login = claims && (await deps.readStore.get<LoginView>(LOGINS, claims.credential_id))?.doc;
    if (!claims || !login || claims.workspace_id !== workspace.workspace_id || login.workspace_id !== workspace.workspace_id || login.platform !== 'mt') {
      return html(ctx, 403, refusalPage('Sign-in refused', NOT_A_BOT));
    }
    const bot = await loadBot(deps.commands, claims.bot_id);
    if (bot.kind !== 'present' || isTerminal(bot.status) || bot.team_id !== workspace.team_id) return html(ctx, 403, refusalPage('Sign-in refused', NOT_A_BOT));
    const issued = await handleLoginCommand(deps.commands, 'mt', login.credential_id, {
      type: 'IssueAssertion',
      bot_id: claims.bot_id,
      ticket_id: claims.ticket_id,
      now: deps.commands.clock().toISOString(),
    });
    if (E.isLeft(issued)) return html(ctx, 403, refusalPage('Sign-in refused', `${NOT_A_BOT} (${issued.left.message})`));
    const key = await signingKeyPairOf(deps, workspace.workspace_id);
    if (!key) return html(ctx, 404, refusalPage('Unknown workspace', 'No mt workspace has this identity provider.'));
    const response = await signedLoginResponse(endpointsOf(workspace), key, request, login.email);
    html(ctx, 200, autoPostPage(response));
  };

  router.get('/sso', async (ctx) => {
    const workspace = await workspaceOf(ctx);
    if (!workspace) return html(ctx, 404, refusalPage('Unknown workspace', 'No mt workspace has this identity provider.'));
    const query = Object.fromEntries(Object.entries(ctx.query).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const request = await authnRequestOf(ctx, workspace, 'redirect', query);
    if (!request) return;
    html(ctx, 200, botSignInPage({ samlRequest: query.SAMLRequest!, relayState: request.relayState, binding: 'redirect' }));
  });

  router.post('/sso', async (ctx) => {
    const workspace = await workspaceOf(ctx);
    if (!workspace) return html(ctx, 404, refusalPage('Unknown workspace', 'No mt workspace has this identity provider.'));
    const form = await readForm(ctx);
    // The bot's form carries the binding Google's request came with; Google's own POST is the HTTP-POST binding.
    const binding = form.binding === 'redirect' ? 'redirect' : 'post';
    const { bot_credential: ticket, binding: _binding, ...fields } = form;
    const request = await authnRequestOf(ctx, workspace, binding, fields);
    if (!request) return;
    if (ticket === undefined) return html(ctx, 200, botSignInPage({ samlRequest: fields.SAMLRequest!, relayState: request.relayState, binding }));
    await assert(ctx, workspace, request, ticket);
  });

  return router;
};
