import type Router from '@koa/router';
import type { SecretBox } from '../adapters/crypto/secret-box';
import { CredentialSealer } from '../adapters/key-vault/credential-sealer';
import type { KeyVault } from '../adapters/key-vault/port';
import type { ReadStore } from '../adapters/read-store/port';
import { HttpVcPlatform } from '../adapters/vc-platform/http-vc-platform';
import type { VcPlatform } from '../adapters/vc-platform/port';
import type { CommandDeps } from '../commands/command-deps';
import type { VcCredentialDeps } from '../commands/vc-credentials/vc-credential-store';
import type { AppState } from '../http/app-context';
import type { BotState } from '../http/internal/internal-router';
import { vcJoinRouter } from '../http/internal/vc-join-router';
import type { WebhookTargets } from '../http/v2/webhook-targets';
import type { BotControlHub } from '../adapters/bot-control/control-hub';
import type { Signer } from '../adapters/signing/signer';
import { TokenUrlClient } from '../adapters/vc-platform/token-url-client';
import type { JoinCredentialDeps } from '../commands/vc-joins/join-credentials';
import { legacyVcOAuthRouter } from '../http/vc-credentials/legacy-vc-oauth-router';
import { v2VcCredentialsRouter } from '../http/vc-credentials/v2-vc-credentials-router';
import type { ProjectionRunner } from '../projections/projection-runner';
import { defaultVcSettings, type VcSettings } from './vc-settings';

export interface VcJoinsDeps {
  readonly commands: CommandDeps;
  readonly signer: Signer;
  readonly control: BotControlHub;
  /** token URLs follow the webhooks' targets policy and name resolution */
  readonly webhookTargets: WebhookTargets;
  readonly readStore: ReadStore;
  readonly projections: ProjectionRunner;
  readonly secretBox: SecretBox;
  /** the service's key vault: each credential's secrets are sealed with its own key, destroyed with the credential */
  readonly keyVault: KeyVault;
  readonly settings?: VcSettings | undefined;
  /** tests: another platform client (default: HTTP at the settings' base URLs) */
  readonly platform?: VcPlatform;
}

export interface VcJoins {
  readonly credentials: VcCredentialDeps;
  readonly settings: VcSettings;
  /** the authenticated routers: `/vc_oauth_connections` (legacy) and `/v2/vc-credentials` */
  readonly routers: readonly Router<AppState>[];
  /** the bots' side: `POST /internal/bots/{id}/vc-join` (its own bot token) */
  readonly internalRouter: Router<BotState>;
}

/**
 * vc joins with credentials (DESIGN.md "vc credentials"): the stored OAuth connections and SDK
 * credentials sealed with their keys in the service's key vault, the platform's OAuth and REST client, their routes, and the bots' join
 * credentials (tokens fetched and the join signed by the service at every join).
 */
export const vcJoinsCapability = (deps: VcJoinsDeps): VcJoins => {
  const settings = deps.settings ?? defaultVcSettings;
  const credentials: VcCredentialDeps = {
    commands: deps.commands,
    sealer: new CredentialSealer(deps.keyVault, deps.commands.clock),
    platform: deps.platform ?? new HttpVcPlatform(settings.platform),
  };
  const api = { credentials, readStore: deps.readStore, projections: deps.projections, secretBox: deps.secretBox };
  const join: JoinCredentialDeps = {
    credentials,
    secretBox: deps.secretBox,
    tokenUrls: new TokenUrlClient(deps.webhookTargets.policy, deps.webhookTargets.resolve, settings.tokenUrlTimeoutMs),
    defaultSdk: settings.defaultSdk,
    retrySeconds: settings.obfRetrySeconds,
  };
  return {
    credentials,
    settings,
    routers: [legacyVcOAuthRouter(api), v2VcCredentialsRouter(api)],
    internalRouter: vcJoinRouter({ join, signer: deps.signer, control: deps.control, commands: deps.commands }),
  };
};
