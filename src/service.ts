import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import bunyan from 'bunyan';
import type Logger from 'bunyan';
import type { BotControl } from './adapters/bot-control/port';
import { keyVaultKind } from './adapters/key-vault';
import type { KeyVault } from './adapters/key-vault/port';
import { openSharedState } from './adapters/shared-state';
import { BotContacts } from './commands/bot-contacts';
import { WindowRateLimiter } from './http/middleware/rate-limiter';
import { checkpointStoreKind, openCheckpointStore } from './adapters/checkpoint-store';
import { DEFAULT_LEASE_TIMING } from './adapters/checkpoint-store/port';
import { resolveWithDns } from './adapters/webhook-http/target-policy';
import { openObjectStore } from './adapters/object-store';
import { artifactStores } from './adapters/object-store/artifact-stores';
import { loadServiceKeys } from './adapters/signing/load-service-keys';
import { privateFolder } from './adapters/disk/private-files';
import { childProcessLauncherFor } from './adapters/bot-launcher/child-process-launcher';
import { Signer } from './adapters/signing/signer';
import { SecretBox } from './adapters/crypto/secret-box';
import { eventStoreKind } from './adapters/event-store';
import type { EventStore } from './adapters/event-store/port';
import { openReadStore, readModelsFile, readStoreKind } from './adapters/read-store';
import type { ReadStore } from './adapters/read-store/port';
import { SqliteSnapshotStore } from './adapters/snapshot-store/sqlite-snapshot-store';
import { useSnapshots } from './commands/stream-snapshots';
import type { CommandDeps } from './commands/command-deps';
import type { DataAccessTally } from './commands/data-access-tally';
import { conveniencesOn, type ServiceConfig } from './config';
import { buildApp } from './http/app';
import { serviceSignedLink, storeArtifactLinks } from './http/artifacts/artifact-links';
import type { ReadModelProgress } from './projections/read-model-progress';
import { rolesOf, type Roles } from './roles';
import { capabilities, allProjections } from './capabilities';
import { publicApiDocument } from './capabilities/api-document';
import type { CapabilityParts, ServiceContext, ServiceOverrides } from './capabilities/capability';
import { defaultBotSlots } from './capabilities/bots';
import { readModelsOf } from './capabilities/read-models';
import { openPersonalDataLog } from './capabilities/personal-data-log';
import { type BackgroundPart, type ObservablePart, partOf, runningOf } from './subscribers/background/background-part';
import { startBackgroundParts, type RunningParts } from './subscribers/background/background-parts';
import type { WebhookDeliveryWorker } from './subscribers/deliver-webhooks';
import type { BotDispatcher } from './subscribers/dispatch-queued-bots';
import type { PeriodicSweep } from './subscribers/periodic-sweep';
import type { BotScheduler } from './subscribers/queue-scheduled-bots';
import type { CalendarSyncWorker } from './subscribers/sync-calendars';
import type { RunningBotsWatch } from './subscribers/watch-running-bots';

export type { ServiceOverrides };
export { defaultBotSlots };

export interface RunningService {
  readonly url: string;
  readonly port: number;
  readonly log: Logger;
  readonly roles: Roles;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly commands: CommandDeps;
  readonly control: BotControl;
  readonly signer: Signer;
  /** the background parts as they run in this process: which leases it holds, and their keepers */
  readonly parts: RunningParts;
  /** the parts below throw while this process does not run them (another process holds their lease, or its role has none) */
  readonly dispatcher: BotDispatcher;
  readonly scheduler: BotScheduler;
  /** uploads the artifacts the service holds for teams' buckets (transient spill) */
  readonly spillUploader: PeriodicSweep;
  /** deletes artifacts whose retention has ended */
  readonly retention: PeriodicSweep;
  /** erases the artifacts of bots whose data the team deleted */
  readonly dataErasure: PeriodicSweep;
  /** the service's key vault: bots' data keys (their personal fields in the log are sealed with them), vc credentials' keys */
  readonly keyVault: KeyVault;
  readonly botWatch: RunningBotsWatch;
  readonly webhooks: WebhookDeliveryWorker;
  readonly calendarSync: CalendarSyncWorker;
  /** meeting_data reads held back before they are recorded */
  readonly dataAccess: DataAccessTally;
  stop(): Promise<void>;
}

export const createLogger = (level: string): Logger =>
  bunyan.createLogger({ name: 'meeting-bot-service', level: level as bunyan.LogLevel, serializers: { err: bunyan.stdSerializers.err } });

/**
 * The HTTP server, first of the parts: it listens at once (the public URL, which bots and links name, is
 * only known then when PORT is 0) but holds every request until the service has started, and it stops
 * last, after the bots' last reports.
 */
const httpServerPart = (listen: () => Promise<Server>): BackgroundPart =>
  partOf('http-server', async () => {
    const server = await listen();
    return {
      stop: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  });

/**
 * The composition root: opens the stores, builds every capability for this process's roles, and starts
 * their background parts in order behind one HTTP server (src/capabilities/index.ts lists them).
 */
export const startService = async (config: ServiceConfig, overrides: ServiceOverrides = {}): Promise<RunningService> => {
  const log = overrides.log ?? createLogger(config.logLevel);
  const conveniences = conveniencesOn(config);
  if (conveniences.length > 0) log.warn({ conveniences }, `development conveniences on: ${conveniences.join(', ')} (never in production)`);
  const wider = privateFolder(config.dataDir);
  if (wider !== null) log.warn({ data_dir: config.dataDir, mode: wider.toString(8) }, 'DATA_DIR was open to other users: closed (0700)');
  // Before anything is opened: a wrong key setting stops the start, and so does a process that would run bots it cannot isolate.
  const { keys, warnings: keyWarnings } = loadServiceKeys(config, config.dataDir);
  for (const warning of keyWarnings) log.warn(warning);
  const roles = rolesOf(config.role ?? 'all', config.botSlots ?? defaultBotSlots());
  const launcher = overrides.launcher ?? childProcessLauncherFor(log, config, roles.worker ? config.botSlots ?? defaultBotSlots() : 0);
  const secretBox = new SecretBox(keys);
  // Every part reads and appends through the sealing wrapper: bots' personal fields sealed with each bot's own
  // key from the key vault, which follows the event store (issue 25; also the vc credentials' keys).
  const { eventStore, keyVault } = await openPersonalDataLog(config, secretBox, log);
  const readStoreConfig = { mongoUrl: config.mongoUrl, mongoDatabase: config.mongoDatabase, embedded: config.readStore, sqlitePath: readModelsFile(config.dataDir) };
  const readStore = await openReadStore(readStoreConfig).catch(async (error) => {
    await eventStore.close();
    await keyVault.close();
    throw error;
  });
  // Long streams' folded states (a team's ledger), so a command after a start does not fold their whole history.
  const snapshots = new SqliteSnapshotStore(path.join(config.dataDir, 'snapshots.sqlite3'));
  useSnapshots(eventStore, snapshots);
  // Subscribers' progress outlives a restart: in PostgreSQL beside the log, in MongoDB beside the read models, else in a file of its own.
  const checkpointStoreConfig = { databaseUrl: config.databaseUrl, mongoUrl: config.mongoUrl, mongoDatabase: config.mongoDatabase, sqlitePath: path.join(config.dataDir, 'checkpoints.sqlite3') };
  const checkpoints = await openCheckpointStore(checkpointStoreConfig);
  const shared = await openSharedState(checkpointStoreConfig);
  const clock = overrides.clock ?? (() => new Date());
  const nowMs = () => clock().getTime();
  const commands: CommandDeps = { eventStore, clock, newId: () => randomUUID() };
  const signer = new Signer(keys);

  // The public URL is only known once listening when PORT is 0 (tests), so links read it late.
  let publicUrl = config.publicUrl ?? '';
  const objectStore = openObjectStore({
    objectStoreUrl: config.objectStoreUrl,
    objectStoreIngestKey: config.objectStoreIngestKey,
    dataDir: config.dataDir,
    signLocalLink: serviceSignedLink(signer, () => publicUrl),
  });
  const stores = artifactStores(objectStore.store, secretBox, { publicAddressesOnly: !config.allowPrivateStorageEndpoints });
  const readModels = readModelsOf({ eventStore, readStore, shared: config.mongoUrl !== undefined, mayProject: roles.api, projections: allProjections, log });
  const instanceId = config.instanceId ?? os.hostname();
  const owner = `${instanceId}/${randomUUID().slice(0, 8)}`;
  const leaseTiming = config.leaseTiming ?? DEFAULT_LEASE_TIMING;
  const context: ServiceContext = {
    config,
    overrides,
    roles,
    log,
    launcher,
    eventStore,
    readStore,
    checkpoints,
    shared,
    keyVault,
    contacts: new BotContacts(shared, nowMs, leaseTiming.renewEveryMs),
    commands,
    nowMs,
    readModels: readModels.progress,
    signer,
    secretBox,
    objectStore,
    stores,
    links: storeArtifactLinks(stores, readStore, nowMs),
    webhookTargets: { policy: { publicHttpsOnly: !config.allowPrivateWebhookTargets }, resolve: overrides.resolveHost ?? resolveWithDns },
    publicUrl: () => publicUrl,
    instanceId,
    owner,
    leaseTiming,
  };
  const built: CapabilityParts[] = capabilities.map((capability) => capability.build(context));
  const exposed = Object.assign({}, ...built.map((b) => b.expose ?? {})) as Record<string, unknown>;

  let ready!: () => void;
  const app = buildApp({
    log,
    commands,
    readStore,
    projections: readModels.progress,
    // A worker-only process serves its health and nothing else.
    adminToken: roles.api ? config.adminToken : undefined,
    rebuildProjections: () => readModels.rebuild(),
    publicRouters: built.flatMap((b) => b.publicRouters ?? []),
    ...(roles.api ? { apiDocument: publicApiDocument } : {}),
    openRouters: built.flatMap((b) => b.openRouters ?? []),
    unauthenticatedRouters: built.flatMap((b) => b.unauthenticatedRouters ?? []),
    rateLimiter: new WindowRateLimiter(shared, nowMs),
    // One log shared by several instances (a server), each projecting it into its own read store (file or memory).
    freshReads: (config.databaseUrl !== undefined || config.eventstoreUrl !== undefined) && config.mongoUrl === undefined,
    ready: new Promise<void>((resolve) => (ready = resolve)),
  });
  let port = config.port;
  const listen = () =>
    new Promise<Server>((resolve) => {
      const server = app.listen(config.port, config.host, () => {
        port = (server.address() as AddressInfo).port;
        publicUrl = config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
        resolve(server);
      });
    });

  const parts = await startBackgroundParts([httpServerPart(listen), ...readModels.parts, ...built.flatMap((b) => b.parts)], {
    checkpoints,
    owner,
    timing: leaseTiming,
    log,
  }).catch(async (error) => {
    await Promise.allSettled([keyVault.close(), readStore.close(), shared.close(), checkpoints.close(), snapshots.close(), eventStore.close()]);
    throw error;
  });
  ready();
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  log.info(
    {
      port,
      role: config.role ?? 'all',
      owner,
      event_store: eventStoreKind(config),
      read_store: readStoreKind(readStoreConfig),
      checkpoint_store: checkpointStoreKind(checkpointStoreConfig),
      key_vault: keyVaultKind(config),
      object_store: objectStore.local ? 'folder' : 's3',
      leases: parts.heldLeases(),
    },
    'service listening',
  );
  const running = <T>(name: string): T => runningOf(exposed[name] as ObservablePart<T>);

  return {
    url,
    port,
    log,
    roles,
    eventStore,
    readStore,
    projections: readModels.progress,
    commands,
    control: exposed.control as BotControl,
    signer,
    parts,
    get dispatcher() {
      return running<BotDispatcher>('dispatcher');
    },
    get scheduler() {
      return running<BotScheduler>('scheduler');
    },
    get spillUploader() {
      return running<PeriodicSweep>('spillUploader');
    },
    get retention() {
      return running<PeriodicSweep>('retention');
    },
    get dataErasure() {
      return running<PeriodicSweep>('dataErasure');
    },
    keyVault,
    get botWatch() {
      return running<RunningBotsWatch>('botWatch');
    },
    get webhooks() {
      return running<WebhookDeliveryWorker>('webhooks');
    },
    get calendarSync() {
      return running<CalendarSyncWorker>('calendarSync');
    },
    dataAccess: exposed.dataAccess as DataAccessTally,
    stop: async () => {
      await parts.stop();
      await keyVault.close();
      await readStore.close();
      await shared.close();
      await checkpoints.close();
      await snapshots.close();
      await eventStore.close();
    },
  };
};
