import type Logger from 'bunyan';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { ArtifactLinks } from '../adapters/artifact-links/port';
import type { BotLauncher } from '../adapters/bot-launcher/port';
import type { CalendarProviders } from '../adapters/calendar-providers';
import type { CheckpointStore } from '../adapters/checkpoint-store/port';
import type { KeyVault } from '../adapters/key-vault/port';
import type { SharedState } from '../adapters/shared-state/port';
import type { BotContacts } from '../commands/bot-contacts';
import type { SecretBox } from '../adapters/crypto/secret-box';
import type { EventStore } from '../adapters/event-store/port';
import type { ArtifactStores } from '../adapters/object-store/artifact-stores';
import type { OpenedObjectStore } from '../adapters/object-store';
import type { ReadStore } from '../adapters/read-store/port';
import type { Signer } from '../adapters/signing/signer';
import type { ProviderSettings } from '../adapters/transcription/providers';
import type { WebhookHttp } from '../adapters/webhook-http/port';
import type { Resolve } from '../adapters/webhook-http/target-policy';
import type { VcPlatform } from '../adapters/vc-platform/port';
import type { CommandDeps } from '../commands/command-deps';
import type { ServiceConfig } from '../config';
import type { AppState } from '../http/app-context';
import type { RouteDocs } from '../http/openapi/operation-doc';
import type { StorageConfigRouterDeps } from '../http/v2/storage-config-router';
import type { WebhookTargets } from '../http/v2/webhook-targets';
import type { Projection } from '../projections/projection';
import type { ReadModelProgress } from '../projections/read-model-progress';
import type { BackgroundPart } from '../subscribers/background/background-part';
import type { LeaseTiming } from '../subscribers/background/leased-part';
import type { CalendarSyncOptions } from '../subscribers/calendars/calendar-sync-deps';
import type { DeliveryWorkerOptions } from '../subscribers/deliver-webhooks';
import type { Roles } from '../roles';

export interface ServiceOverrides {
  readonly clock?: () => Date;
  readonly log?: Logger;
  readonly launcher?: BotLauncher;
  /** how long a reservation may wait for its bot before it is released (default 2 minutes) */
  readonly orphanReservationGraceMs?: number;
  /** how often held (spilled) artifacts are offered to their bucket again (default 10 s) */
  readonly spillRetryMs?: number;
  /** how often expired artifacts are looked for (default 1 h) */
  readonly retentionSweepMs?: number;
  /** how often the artifacts of deleted bots still to erase are looked for (default 60 s) */
  readonly dataErasureSweepMs?: number;
  /** how long a deletion request waits for the erasure of the bot's artifacts before answering `partiallyDeleted` (default 10 s) */
  readonly dataErasureWaitMs?: number;
  /** how webhook targets' host names are resolved (tests pretend a name moved to a private address) */
  readonly resolveHost?: Resolve;
  readonly webhookHttp?: WebhookHttp;
  readonly webhookDelivery?: Partial<DeliveryWorkerOptions>;
  readonly webhookJitter?: () => number;
  /** how often running bots are looked at, and when a silent one of this process is lost */
  readonly botWatch?: { readonly sweepMs?: number; readonly lostAfterMs?: number };
  /** calendar provider clients (tests: the official clients pointed at local fakes, trusting their certificate) */
  readonly calendarProviders?: CalendarProviders;
  readonly calendarSync?: Partial<CalendarSyncOptions>;
  /** the transcription providers' addresses and policies (default: `*_API_URL` from the environment) */
  readonly transcription?: Partial<ProviderSettings>;
  /** meeting_data reads of a bot by a key are held together this long (default 60 s); closed windows are looked for this often (10 s) */
  readonly dataAccess?: { readonly windowMs?: number; readonly sweepMs?: number };
  /** vc joins: another platform client (tests) */
  readonly vcPlatform?: VcPlatform;
  /** how a storage configuration is verified before it is stored (default: against its S3 server) */
  readonly verifyStorage?: StorageConfigRouterDeps['verifyStorage'];
}

/** What every capability is built from: the stores, the clock, the keys, and this process's roles. */
export interface ServiceContext {
  readonly config: ServiceConfig;
  readonly overrides: ServiceOverrides;
  readonly roles: Roles;
  readonly log: Logger;
  /** starts this machine's bots (as the bot user: a process that would run bots it cannot isolate does not start) */
  readonly launcher: BotLauncher;
  /** the log through the sealing of bots' personal fields (personal-data-log.ts): every reader gets them opened */
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly checkpoints: CheckpointStore;
  /** rate-limit counters and bots' last contact, shared by every process */
  readonly shared: SharedState;
  /** the one key vault, outside the log: bots' data keys (deleting a bot's data destroys its key) and stored credentials' keys */
  readonly keyVault: KeyVault;
  readonly contacts: BotContacts;
  readonly commands: CommandDeps;
  readonly nowMs: () => number;
  readonly readModels: ReadModelProgress;
  readonly signer: Signer;
  readonly secretBox: SecretBox;
  readonly objectStore: OpenedObjectStore;
  readonly stores: ArtifactStores;
  readonly links: ArtifactLinks;
  readonly webhookTargets: WebhookTargets;
  /** how bots and links reach the API (known once the server listens when PORT is 0) */
  readonly publicUrl: () => string;
  /** INSTANCE_ID: names this process on the bots it runs */
  readonly instanceId: string;
  /** this process among all that share the stores (INSTANCE_ID and a random suffix): the owner of its leases */
  readonly owner: string;
  readonly leaseTiming: LeaseTiming;
}

/** What a capability runs in a process: its background parts, in the order they start, and its routers. */
export interface CapabilityParts {
  /** each says the lease it needs, if any; a part this process's roles do not run is left out */
  readonly parts: readonly BackgroundPart[];
  /** routers of the public API (after authentication and the rate limit) */
  readonly publicRouters?: readonly Router<AppState>[];
  /**
   * Routers of public routes that take no API key because others call them for the team (our SAML identity
   * provider, which Google and bots' browsers call): described in `apiDocs` like `publicRouters`, mounted
   * before authentication.
   */
  readonly openRouters?: readonly Router<AppState>[];
  /** routers whose callers are not customers, with their own authentication (the bots' internal API, signed links, providers' notices) */
  readonly unauthenticatedRouters?: readonly Koa.Middleware<AppState, any>[];
  /** parts and objects operators and tests reach by name (RunningService) */
  readonly expose?: Readonly<Record<string, unknown>>;
}

/**
 * One capability of the service (teams, bots, webhooks, storage, transcription, calendars): its read
 * models, and how it is built into a process. The service is the list of its capabilities
 * (src/capabilities/index.ts): adding one is a module and a line there.
 */
export interface Capability {
  readonly name: string;
  readonly projections: readonly Projection<any>[];
  /**
   * The description of every route its `publicRouters` and `openRouters` serve: the registries beside those routers
   * (`*-router-doc.ts`), from which the OpenAPI document is written (src/capabilities/api-document.ts).
   * test/http/openapi-document.spec.ts fails while a route it serves is not in them.
   */
  readonly apiDocs?: readonly RouteDocs[];
  build(context: ServiceContext): CapabilityParts;
}
