import type Koa from 'koa';
import type { AppState } from '../app-context';
import type { SignedInLoginRouterDeps } from './deps';
import { loginsRouter } from './logins-router';
import { mtSsoRouter, type MtSsoRouterDeps } from './mt-sso-router';
import { signInRouter, type SignInRouterDeps } from './sign-in-router';
import { workspacesRouter } from './workspaces-router';
import { loginsRouteDocs } from './logins-router-doc';
import { mtSsoRouteDocs } from './mt-sso-router-doc';
import { workspacesRouteDocs } from './workspaces-router-doc';

/** The public API of signed-in bots (Full Access keys): tm and mt workspaces and logins. */
export const signedInLoginApiRouters = (deps: SignedInLoginRouterDeps) => [
  workspacesRouter(deps, 'tm'),
  loginsRouter(deps, 'tm'),
  workspacesRouter(deps, 'mt'),
  loginsRouter(deps, 'mt'),
];

/** The description of those routers and of our identity provider (the capability's `apiDocs`). */
export const signedInLoginRouteDocs = [workspacesRouteDocs('tm'), loginsRouteDocs('tm'), workspacesRouteDocs('mt'), loginsRouteDocs('mt'), mtSsoRouteDocs];

/** Public without the API key: our SAML identity provider, which Google and the bots' browsers call. */
export const signedInLoginOpenRouters = (deps: MtSsoRouterDeps) => [mtSsoRouter(deps)];

/** The bots' sign-in calls (their own token): not the public API. */
export const signedInLoginUnauthenticatedRouters = (deps: SignInRouterDeps): Koa.Middleware<AppState, any>[] => [signInRouter(deps).routes()];
