import type Koa from 'koa';
import type { AppState } from '../app-context';
import type { SignedInLoginRouterDeps } from './deps';
import { loginsRouter } from './logins-router';
import { mtSsoRouter, type MtSsoRouterDeps } from './mt-sso-router';
import { signInRouter, type SignInRouterDeps } from './sign-in-router';
import { workspacesRouter } from './workspaces-router';

/** The public API of signed-in bots (Full Access keys): tm and mt workspaces and logins. */
export const signedInLoginApiRouters = (deps: SignedInLoginRouterDeps) => [
  workspacesRouter(deps, 'tm'),
  loginsRouter(deps, 'tm'),
  workspacesRouter(deps, 'mt'),
  loginsRouter(deps, 'mt'),
];

/** Outside the API key: our SAML identity provider (Google and bots' browsers) and the bots' sign-in calls (bot token). */
export const signedInLoginUnauthenticatedRouters = (deps: SignInRouterDeps & MtSsoRouterDeps): Koa.Middleware<AppState, any>[] => {
  const sso = mtSsoRouter(deps);
  const signIn = signInRouter(deps);
  return [sso.routes(), sso.allowedMethods(), signIn.routes()];
};
