import { CredentialSealer } from '../adapters/key-vault/credential-sealer';
import { HttpVcPlatform } from '../adapters/vc-platform/http-vc-platform';
import { signSdkJwt } from '../adapters/vc-platform/sdk-signature';
import { TokenUrlClient } from '../adapters/vc-platform/token-url-client';
import type { VcCredentialDeps } from '../commands/vc-credentials/vc-credential-store';
import type { JoinCredentialDeps } from '../commands/vc-joins/join-credentials';
import { vcJoinRouter } from '../http/internal/vc-join-router';
import { legacyVcOAuthRouter } from '../http/vc-credentials/legacy-vc-oauth-router';
import { legacyVcOAuthRouteDocs } from '../http/vc-credentials/legacy-vc-oauth-router-doc';
import { v2VcCredentialsRouter } from '../http/vc-credentials/v2-vc-credentials-router';
import { v2VcCredentialsRouteDocs } from '../http/vc-credentials/v2-vc-credentials-router-doc';
import { vcCredentialViewProjection } from '../projections/vc-credential-view';
import type { Capability } from './capability';
import { defaultVcSettings } from './vc-settings';

/**
 * vc joins with credentials (DESIGN.md "vc credentials"): the stored OAuth connections and SDK credentials
 * (sealed with their own keys from the key vault the service opens with its stores), the platform's OAuth
 * and REST client, their routes, and the bots' join credentials (tokens fetched and the join signed by the
 * service at every join). No background part of its own: a credential the platform refuses is told to the
 * team by the webhooks' queue (`vc_credential.invalid`), under its lease. Every api instance serves both
 * APIs; a worker-only process none.
 */
export const vcJoins: Capability = {
  name: 'vc-joins',
  projections: [vcCredentialViewProjection],
  apiDocs: [legacyVcOAuthRouteDocs, v2VcCredentialsRouteDocs],
  build: (context) => {
    if (!context.roles.api) return { parts: [] };
    const settings = context.config.vc ?? defaultVcSettings;
    const credentials: VcCredentialDeps = {
      commands: context.commands,
      sealer: new CredentialSealer(context.keyVault, context.commands.clock),
      platform: context.overrides.vcPlatform ?? new HttpVcPlatform(settings.platform),
    };
    const join: JoinCredentialDeps = {
      credentials,
      secretBox: context.secretBox,
      tokenUrls: new TokenUrlClient(context.webhookTargets.policy, context.webhookTargets.resolve, settings.tokenUrlTimeoutMs),
      signSdkJwt,
      defaultSdk: settings.defaultSdk,
      retrySeconds: settings.obfRetrySeconds,
    };
    const api = { credentials, readStore: context.readStore, projections: context.readModels, secretBox: context.secretBox };
    return {
      parts: [],
      publicRouters: [legacyVcOAuthRouter(api), v2VcCredentialsRouter(api)],
      // the bots' side, `POST /internal/bots/{id}/vc-join`: the bot's own token, as every internal call
      unauthenticatedRouters: [vcJoinRouter({ join, signer: context.signer, contacts: context.contacts, commands: context.commands }).routes()],
    };
  },
};
