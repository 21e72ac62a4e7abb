import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import bunyan from 'bunyan';
import type Logger from 'bunyan';
import os from 'node:os';
import { BotControlHub } from './adapters/bot-control/control-hub';
import { checkpointStoreKind, openCheckpointStore } from './adapters/checkpoint-store';
import { NodeWebhookHttp } from './adapters/webhook-http/node-webhook-http';
import type { WebhookHttp } from './adapters/webhook-http/port';
import { resolveWithDns, type Resolve } from './adapters/webhook-http/target-policy';
import { openCalendarProviders, realCalendarProviders, type CalendarProviders } from './adapters/calendar-providers';
import { childProcessLauncherFor } from './adapters/bot-launcher/child-process-launcher';
import type { BotLauncher } from './adapters/bot-launcher/port';
import { openObjectStore } from './adapters/object-store';
import { artifactStores } from './adapters/object-store/artifact-stores';
import { loadServiceKeys } from './adapters/signing/load-service-keys';
import { freeSpaceGuard } from './adapters/disk/free-space';
import { privateFolder } from './adapters/disk/private-files';
import { Signer } from './adapters/signing/signer';
import { SecretBox } from './adapters/crypto/secret-box';
import { eventStoreKind, openEventStore } from './adapters/event-store';
import type { EventStore } from './adapters/event-store/port';
import { openReadStore } from './adapters/read-store';
import type { ReadStore } from './adapters/read-store/port';
import type { CommandDeps } from './commands/command-deps';
import { conveniencesOn, type ServiceConfig } from './config';
import { DEFAULT_ARTIFACT_SIZE_LIMITS, DEFAULT_MIN_FREE_DISK_BYTES } from './http/internal/upload-limits';
import { buildApp } from './http/app';
import type { StorageConfigRouterDeps } from './http/v2/storage-config-router';
import { artifactsRouter } from './http/artifacts/artifacts-router';
import { serviceSignedLink, storeArtifactLinks } from './http/artifacts/artifact-links';
import { internalRouter } from './http/internal/internal-router';
import { calendarPushRouter } from './http/calendar-push/calendar-push-router';
import { allProjections } from './projections/all-projections';
import { ProjectionRunner } from './projections/projection-runner';
import { rebuildProjections } from './projections/rebuild-projections';
import { WebhookDeliveryWorker, type DeliveryWorkerOptions } from './subscribers/deliver-webhooks';
import { BotDispatcher } from './subscribers/dispatch-queued-bots';
import { BotScheduler } from './subscribers/queue-scheduled-bots';
import { recordDataAccess } from './subscribers/record-data-access';
import type { DataAccessTally } from './commands/data-access-tally';
import { queueWebhookMessages } from './subscribers/queue-webhook-messages';
import { RunningBotsWatch } from './subscribers/watch-running-bots';
import { releaseOrphanReservations } from './subscribers/release-orphan-reservations';
import { settleTokensWhenBotEnds } from './subscribers/settle-tokens-when-bot-ends';
import { uploadTargetFor } from './subscribers/upload-target';
import { uploadSpilledArtifacts } from './subscribers/upload-spilled-artifacts';
import { expireArtifacts } from './subscribers/expire-artifacts';
import type { PeriodicSweep } from './subscribers/periodic-sweep';
import { SubscriberRunner } from './subscribers/subscriber-runner';
import { CalendarSyncWorker } from './subscribers/sync-calendars';
import { scheduleCalendarBots } from './subscribers/schedule-calendar-bots';
import { botDefinitionOfParam } from './http/codecs/calendar-bot-param';
import { botMakingOf } from './http/calendars/calendar-bot-operations';
import type { CalendarSyncOptions } from './subscribers/calendars/calendar-sync-deps';
import { transcribeRecordings } from './subscribers/transcribe-recordings';
import { providerUrlsFromEnv, transcriptionProviders, type ProviderSettings } from './adapters/transcription/providers';

export interface RunningService {
  readonly url: string;
  readonly port: number;
  readonly log: Logger;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly projections: ProjectionRunner;
  readonly commands: CommandDeps;
  readonly control: BotControlHub;
  readonly signer: Signer;
  readonly dispatcher: BotDispatcher;
  readonly scheduler: BotScheduler;
  /** uploads the artifacts the service holds for teams' buckets (transient spill) */
  readonly spillUploader: PeriodicSweep;
  /** deletes artifacts whose retention has ended */
  readonly retention: PeriodicSweep;
  readonly botWatch: RunningBotsWatch;
  readonly webhooks: WebhookDeliveryWorker;
  readonly calendarSync: CalendarSyncWorker;
  /** meeting_data reads held back before they are recorded */
  readonly dataAccess: DataAccessTally;
  stop(): Promise<void>;
}

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
  /** how webhook targets' host names are resolved (tests pretend a name moved to a private address) */
  readonly resolveHost?: Resolve;
  readonly webhookHttp?: WebhookHttp;
  readonly webhookDelivery?: Partial<DeliveryWorkerOptions>;
  readonly webhookJitter?: () => number;
  /** how often running bots without a process here are looked at, and when a silent one is lost */
  readonly botWatch?: { readonly sweepMs?: number; readonly lostAfterMs?: number };
  /** calendar provider clients (tests: the official clients pointed at local fakes, trusting their certificate) */
  readonly calendarProviders?: CalendarProviders;
  readonly calendarSync?: Partial<CalendarSyncOptions>;
  /** the transcription providers' addresses and policies (default: `*_API_URL` from the environment) */
  readonly transcription?: Partial<ProviderSettings>;
  /** how a storage configuration is verified before it is stored (default: against its S3 server) */
  readonly verifyStorage?: StorageConfigRouterDeps['verifyStorage'];
  /** meeting_data reads of a bot by a key are held together this long (default 60 s); closed windows are looked for this often (10 s) */
  readonly dataAccess?: { readonly windowMs?: number; readonly sweepMs?: number };
}

/** What fits this machine: one Chromium is ~420 MB PSS and an audio-only bot ~5 % of a core (ENVIRONMENT.md). */
export const defaultBotSlots = (): number => Math.max(1, Math.min(Math.floor(os.totalmem() / (600 * 2 ** 20)), os.cpus().length * 4));

export const createLogger = (level: string): Logger =>
  bunyan.createLogger({ name: 'meeting-bot-service', level: level as bunyan.LogLevel, serializers: { err: bunyan.stdSerializers.err } });

/** The composition root: opens the stores, catches the read models up, and serves HTTP. */
export const startService = async (config: ServiceConfig, overrides: ServiceOverrides = {}): Promise<RunningService> => {
  const log = overrides.log ?? createLogger(config.logLevel);
  const conveniences = conveniencesOn(config);
  if (conveniences.length > 0) log.warn({ conveniences }, `development conveniences on: ${conveniences.join(', ')} (never in production)`);
  const wider = privateFolder(config.dataDir);
  if (wider !== null) log.warn({ data_dir: config.dataDir, mode: wider.toString(8) }, 'DATA_DIR was open to other users: closed (0700)');
  // Before anything is opened: a wrong key setting stops the start, and so does a service that would run bots it cannot isolate.
  const { keys, warnings: keyWarnings } = loadServiceKeys(config, config.dataDir);
  for (const warning of keyWarnings) log.warn(warning);
  const launcher = overrides.launcher ?? childProcessLauncherFor(log, config, config.botSlots ?? defaultBotSlots());
  const eventStore = await openEventStore({ eventstoreUrl: config.eventstoreUrl, databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'events.sqlite3') });
  const readStore = await openReadStore({ mongoUrl: config.mongoUrl, mongoDatabase: config.mongoDatabase });
  // Subscribers' progress outlives a restart: in PostgreSQL beside the log, in MongoDB beside the read models, else in a file of its own.
  const checkpointStoreConfig = { databaseUrl: config.databaseUrl, mongoUrl: config.mongoUrl, mongoDatabase: config.mongoDatabase, sqlitePath: path.join(config.dataDir, 'checkpoints.sqlite3') };
  const checkpoints = await openCheckpointStore(checkpointStoreConfig);
  const projections = new ProjectionRunner(eventStore, readStore, allProjections, log);
  await projections.start();

  const clock = overrides.clock ?? (() => new Date());
  const commands: CommandDeps = { eventStore, clock, newId: () => randomUUID() };
  const control = new BotControlHub(() => clock().getTime());
  const signer = new Signer(keys);
  const secretBox = new SecretBox(keys);
  const settler = new SubscriberRunner(eventStore, checkpoints, settleTokensWhenBotEnds(eventStore), log);
  await settler.start();
  const orphanReservations = releaseOrphanReservations({ ...commands, log }, overrides.orphanReservationGraceMs);
  const reconciler = new SubscriberRunner(eventStore, checkpoints, orphanReservations, log);
  await reconciler.start();

  // The public URL is only known once listening when PORT is 0 (tests), so links read it late.
  let publicUrl = config.publicUrl ?? '';
  const nowMs = () => clock().getTime();
  const objectStore = openObjectStore({
    objectStoreUrl: config.objectStoreUrl,
    objectStoreIngestKey: config.objectStoreIngestKey,
    dataDir: config.dataDir,
    signLocalLink: serviceSignedLink(signer, () => publicUrl),
  });
  const stores = artifactStores(objectStore.store, secretBox, { publicAddressesOnly: !config.allowPrivateStorageEndpoints });
  const links = storeArtifactLinks(stores, readStore, nowMs);
  const transcriber = transcribeRecordings({
    commands,
    stores,
    secretBox,
    providers: transcriptionProviders({ urls: providerUrlsFromEnv(), ...overrides.transcription }),
    log,
  });
  const transcriptions = new SubscriberRunner(eventStore, checkpoints, transcriber, log);
  const spillUploader = uploadSpilledArtifacts({ commands, readStore, stores, log }, overrides.spillRetryMs);
  const retention = expireArtifacts({ commands, readStore, stores, log }, overrides.retentionSweepMs);

  const webhookTargets = { policy: { publicHttpsOnly: !config.allowPrivateWebhookTargets }, resolve: overrides.resolveHost ?? resolveWithDns };
  const webhooks = new WebhookDeliveryWorker({
    eventStore,
    readStore,
    secretBox,
    links,
    commands,
    http: overrides.webhookHttp ?? new NodeWebhookHttp(webhookTargets.policy, webhookTargets.resolve),
    log,
    ...(overrides.webhookDelivery ? { options: overrides.webhookDelivery } : {}),
    ...(overrides.webhookJitter ? { jitter: overrides.webhookJitter } : {}),
  });
  await webhooks.start(projections.position);
  const webhookQueue = new SubscriberRunner(
    eventStore,
    checkpoints,
    queueWebhookMessages({
      eventStore,
      readStore,
      commands,
      waitForReadModels: (position) => projections.waitForPosition(position, 30_000),
      queued: () => webhooks.wake(),
    }),
    log,
  );
  await webhookQueue.start();
  const calendarProviders =
    overrides.calendarProviders ?? openCalendarProviders(config.calendarProviders ?? realCalendarProviders, { sandboxHosts: config.sandboxHosts });
  const calendarBotMaking = botMakingOf({ secretBox, sandboxHosts: config.sandboxHosts });
  const calendarBots = new SubscriberRunner(
    eventStore,
    checkpoints,
    scheduleCalendarBots({
      commands,
      readStore,
      waitForReadModels: (position) => projections.waitForPosition(position, 30_000),
      definitionOf: (param, meetingUrl) => botDefinitionOfParam(param, meetingUrl, calendarBotMaking),
      log,
    }),
    log,
  );
  await calendarBots.start();
  const calendarSync = new CalendarSyncWorker(
    { commands, readStore, providers: calendarProviders, secretBox, signer, publicUrl: () => publicUrl, log },
    { ...(config.calendarResyncMs ? { periodicResyncMs: config.calendarResyncMs } : {}), ...overrides.calendarSync },
  );
  const dataAccess = recordDataAccess(commands, log, overrides.dataAccess);
  const app = buildApp({
    log,
    commands,
    dataAccess: dataAccess.tally,
    readStore,
    projections,
    control,
    links,
    unauthenticatedRouters: [
      internalRouter({
        commands,
        control,
        stores,
        signer,
        projections,
        readStore,
        uploads: {
          limits: { ...DEFAULT_ARTIFACT_SIZE_LIMITS, ...config.artifactSizeLimits },
          // Only the local folder shares the disk with the event log.
          diskSpace: objectStore.local ? freeSpaceGuard(config.dataDir, config.minFreeDiskBytes ?? DEFAULT_MIN_FREE_DISK_BYTES) : null,
        },
      }).routes(),
      // With S3 the links are presigned by the bucket's server: recordings never pass through this process.
      ...(objectStore.local ? [artifactsRouter(objectStore.store, signer, nowMs).routes()] : []),
      calendarPushRouter({ commands, signer, wake: (calendarId) => calendarSync.wake(calendarId) }).routes(),
    ],
    calendarApi: { commands, readStore, projections, secretBox, webhookTargets, calendarProviders, calendarSync, sandboxHosts: config.sandboxHosts },
    sandboxHosts: config.sandboxHosts,
    secretBox,
    publicStorageEndpointsOnly: !config.allowPrivateStorageEndpoints,
    ...(overrides.verifyStorage ? { verifyStorage: overrides.verifyStorage } : {}),
    webhookTargets,
    webhooksQueued: () => webhooks.wake(),
    adminToken: config.adminToken,
    rebuildProjections: async () => {
      await projections.stop();
      const report = await rebuildProjections(eventStore, readStore, allProjections);
      await projections.start();
      return report;
    },
  });

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  publicUrl = config.publicUrl ?? url;
  // Hosted providers fetch the recording from a link to this service: it starts once the address is known.
  await transcriptions.start();
  const dispatcher = new BotDispatcher({
    commands,
    eventStore,
    readStore,
    launcher,
    signer,
    serviceUrl: publicUrl,
    uploadTarget: uploadTargetFor(secretBox, publicUrl, objectStore.botUploads),
    // Bots' own connections (images, streaming sockets, buckets) may reach private addresses only under a development switch.
    botHost: { sandboxHosts: config.sandboxHosts, privateAddressesAllowed: (config.allowPrivateStorageEndpoints ?? false) || (config.allowPrivateWebhookTargets ?? false) },
    slots: config.botSlots ?? defaultBotSlots(),
    workerId: config.instanceId ?? os.hostname(),
    forgetControl: (botId) => control.forget(botId),
    log,
  });
  await dispatcher.start(projections.position);
  const botWatch = new RunningBotsWatch({
    commands,
    readStore,
    workerId: config.instanceId ?? os.hostname(),
    log,
    lastContactMs: (botId) => control.lastContactMs(botId),
    forgetControl: (botId) => control.forget(botId),
    isChild: (botId) => dispatcher.isRunningHere(botId),
    ...overrides.botWatch,
  });
  await botWatch.start();
  const scheduler = new BotScheduler({ commands, eventStore, readStore, log });
  await scheduler.start(projections.position);
  // After listening: the push channels it opens name the service's public address.
  await calendarSync.start(projections.position);
  log.info(
    {
      port,
      event_store: eventStoreKind(config),
      read_store: config.mongoUrl ? 'mongodb' : 'memory',
      checkpoint_store: checkpointStoreKind(checkpointStoreConfig),
      object_store: objectStore.local ? 'folder' : 's3',
    },
    'service listening',
  );

  return {
    url,
    port,
    log,
    eventStore,
    readStore,
    projections,
    commands,
    control,
    signer,
    dispatcher,
    scheduler,
    spillUploader,
    retention,
    botWatch,
    webhooks,
    calendarSync,
    dataAccess: dataAccess.tally,
    stop: async () => {
      await calendarSync.stop();
      await scheduler.stop();
      await botWatch.stop();
      await dispatcher.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dataAccess.stop();
      transcriber.stop();
      await transcriptions.stop();
      await spillUploader.stop();
      await retention.stop();
      await settler.stop();
      await reconciler.stop();
      await webhookQueue.stop();
      await calendarBots.stop();
      await webhooks.stop();
      orphanReservations.stop();
      await projections.stop();
      await readStore.close();
      await checkpoints.close();
      await eventStore.close();
    },
  };
};
