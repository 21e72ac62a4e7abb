import { CredentialSealer } from '../adapters/key-vault/credential-sealer';
import { openKeyVault } from '../adapters/key-vault';
import { HttpVcPlatform } from '../adapters/vc-platform/http-vc-platform';
import { signSdkJwt } from '../adapters/vc-platform/sdk-signature';
import { TokenUrlClient } from '../adapters/vc-platform/token-url-client';
import type { VcCredentialDeps } from '../commands/vc-credentials/vc-credential-store';
import type { JoinCredentialDeps } from '../commands/vc-joins/join-credentials';
import { vcJoinRouter } from '../http/internal/vc-join-router';
import { legacyVcOAuthRouter } from '../http/vc-credentials/legacy-vc-oauth-router';
import { v2VcCredentialsRouter } from '../http/vc-credentials/v2-vc-credentials-router';
import { vcCredentialViewProjection } from '../projections/vc-credential-view';
import { partOf } from '../subscribers/background/background-part';
import type { Capability } from './capability';
import { defaultVcSettings } from './vc-settings';

/**
 * vc joins with credentials (DESIGN.md "vc credentials"): the stored OAuth connections and SDK
 * credentials with their key vault, the platform's OAuth and REST client, their routes, and the bots' join
 * credentials (tokens fetched and the join signed by the service at every join).
 */
export const vcJoins: Capability = {
  name: 'vc-joins',
  projections: [vcCredentialViewProjection],
  build: (context) => {
    const settings = context.config.vc ?? defaultVcSettings;
    const vault = openKeyVault({ mongoUrl: context.config.mongoUrl, mongoDatabase: context.config.mongoDatabase, dataDir: context.config.dataDir }, context.secretBox);
    const credentials: VcCredentialDeps = {
      commands: context.commands,
      sealer: new CredentialSealer(vault),
      platform: context.overrides.vcPlatform ?? new HttpVcPlatform(settings.platform),
    };
    const api = { credentials, readStore: context.readStore, projections: context.readModels, secretBox: context.secretBox };
    const join: JoinCredentialDeps = {
      credentials,
      secretBox: context.secretBox,
      tokenUrls: new TokenUrlClient(context.webhookTargets.policy, context.webhookTargets.resolve, settings.tokenUrlTimeoutMs),
      signSdkJwt,
      defaultSdk: settings.defaultSdk,
      retrySeconds: settings.obfRetrySeconds,
    };
    const apiRole = context.roles.api;
    return {
      parts: [partOf('key-vault', () => ({ stop: () => vault.close() }))],
      publicRouters: apiRole ? [legacyVcOAuthRouter(api), v2VcCredentialsRouter(api)] : [],
      // the bots' side: `POST /internal/bots/{id}/vc-join`, with the bot's own token
      unauthenticatedRouters: apiRole ? [vcJoinRouter({ join, signer: context.signer, contacts: context.contacts, commands: context.commands }).routes()] : [],
    };
  },
};
