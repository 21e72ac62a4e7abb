import { CredentialSealer } from '../adapters/key-vault/credential-sealer';
import { SignInTickets } from '../adapters/signing/sign-in-tickets';
import { signedInLoginApiRouters, signedInLoginOpenRouters, signedInLoginRouteDocs, signedInLoginUnauthenticatedRouters } from '../http/signed-in-logins';
import { signedInLoginProjections } from '../projections/signed-in-logins';
import { releaseLoginSessions } from '../subscribers/signed-in-logins/release-login-sessions';
import type { Capability } from './capability';
import { subscriberPart } from './subscriber-part';

/**
 * Signed-in bots (issue 20): tm and mt workspaces and logins, their pools and sessions, our SAML identity
 * provider for Google and the bots' sign-in calls (every api instance), and the release of the sessions of
 * bots that ended (under the `login-sessions` lease). Passwords and signing keys are sealed with their own
 * keys from the shared key vault. The account webhooks (`login.invalid`, `workspace.invalid`,
 * `login.saturated`) are queued by the webhooks' queue under its lease, like every other message. A
 * worker-only process runs none of it.
 */
export const signedInLogins: Capability = {
  name: 'signed-in-logins',
  projections: signedInLoginProjections,
  apiDocs: signedInLoginRouteDocs,
  build: (context) => {
    if (!context.roles.api) return { parts: [] };
    const { commands, readStore } = context;
    const deps = {
      commands,
      readStore,
      projections: context.readModels,
      secretBox: context.secretBox,
      sealer: new CredentialSealer(context.keyVault),
      signer: context.signer,
      contacts: context.contacts,
      tickets: new SignInTickets(context.signer),
      publicUrl: context.publicUrl,
    };
    const release = subscriberPart(context, 'login-sessions', () =>
      releaseLoginSessions({ commands, readStore, waitForReadModels: (position) => context.readModels.waitForPosition(position, 30_000) }),
    );
    return {
      parts: [release],
      publicRouters: signedInLoginApiRouters(deps),
      openRouters: signedInLoginOpenRouters(deps),
      unauthenticatedRouters: signedInLoginUnauthenticatedRouters(deps),
    };
  },
};
