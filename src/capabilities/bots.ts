import os from 'node:os';
import { freeSpaceGuard } from '../adapters/disk/free-space';
import { DEFAULT_ARTIFACT_SIZE_LIMITS, DEFAULT_MIN_FREE_DISK_BYTES } from '../http/internal/upload-limits';
import { internalRouter } from '../http/internal/internal-router';
import { legacyBotsRouter } from '../http/legacy/bots-router';
import { legacyBotsRouteDocs } from '../http/legacy/bots-router-doc';
import { botsRouter } from '../http/v2/bots-router';
import { botsRouteDocs } from '../http/v2/bots-router-doc';
import { scheduledBotsRouteDocs } from '../http/v2/scheduled-bots-router-doc';
import { botViewProjection } from '../projections/bot-view';
import { instanceViewProjection } from '../projections/instance-view';
import { legacyBotViewProjection } from '../projections/legacy-bot-view';
import { partOf } from '../subscribers/background/background-part';
import { LiveControl } from '../subscribers/control/live-control';
import { BotDispatcher } from '../subscribers/dispatch-queued-bots';
import { endBotsOfVanishedWorkers } from '../subscribers/end-bots-of-vanished-workers';
import { BotScheduler } from '../subscribers/queue-scheduled-bots';
import { recordDataAccess } from '../subscribers/record-data-access';
import { releaseOrphanReservations } from '../subscribers/release-orphan-reservations';
import { settleTokensWhenBotEnds } from '../subscribers/settle-tokens-when-bot-ends';
import { uploadTargetFor } from '../subscribers/upload-target';
import { RunningBotsWatch } from '../subscribers/watch-running-bots';
import { WorkerHeartbeat } from '../subscribers/worker-heartbeat';
import type { Capability, ServiceContext } from './capability';
import { subscriberPart } from './subscriber-part';

/** What fits this machine: one Chromium is ~420 MB PSS and an audio-only bot ~5 % of a core (ENVIRONMENT.md). */
export const defaultBotSlots = (): number => Math.max(1, Math.min(Math.floor(os.totalmem() / (600 * 2 ** 20)), os.cpus().length * 4));

/** A bot silent this long counts as unreachable for chat and leave: longer than one long poll (20 s). */
const REACHABLE_WITHIN_MS = 40_000;

/** A worker-only process checks at start that its bots will reach the API (PUBLIC_URL). */
const apiReachable = (context: ServiceContext) =>
  partOf('api-reachable', async () => {
    const url = `${context.publicUrl()}/health`;
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!answer.ok) throw new Error(`it answered ${answer.status}`);
    } catch (error) {
      throw new Error(`ROLE=worker cannot reach the API at ${url} (PUBLIC_URL), which its bots must call: ${(error as Error).message}`);
    }
    return { stop: async () => undefined };
  });

/**
 * Bots: their read models, the API (v2, legacy, the bots' internal API with its control channel), the
 * ledger's subscribers (settlement, orphan reservations), the scheduler and the end of vanished workers'
 * bots (api, each under its lease); on a worker, its heartbeat, the dispatcher and the watch of its bots.
 */
export const bots: Capability = {
  name: 'bots',
  projections: [botViewProjection, legacyBotViewProjection, instanceViewProjection],
  apiDocs: [botsRouteDocs, scheduledBotsRouteDocs, legacyBotsRouteDocs],
  build: (context) => {
    const { commands, log, overrides, config, contacts, leaseTiming } = context;
    const { api, worker } = context.roles;
    const control = new LiveControl({ eventStore: context.eventStore, contacts, log, reachableWithinMs: REACHABLE_WITHIN_MS });
    const controlPart = partOf('live-control', () => (control.start(context.readModels.position), control));
    const dataAccess = recordDataAccess(commands, log, overrides.dataAccess);
    const dataAccessPart = partOf('data-access', () => ({ stop: () => dataAccess.stop() }));
    const heartbeat = partOf('worker-heartbeat', async () => {
      const heartbeat = new WorkerHeartbeat({ checkpoints: context.checkpoints, instanceId: context.instanceId, owner: context.owner, timing: leaseTiming, log });
      await heartbeat.start();
      return heartbeat;
    });
    const dispatcher = partOf('dispatcher', async () => {
      const dispatcher = new BotDispatcher({
        commands,
        eventStore: context.eventStore,
        readStore: context.readStore,
        launcher: context.launcher,
        signer: context.signer,
        serviceUrl: context.publicUrl(),
        uploadTarget: uploadTargetFor(context.secretBox, context.publicUrl(), context.objectStore.botUploads),
        // Bots' own connections (images, streaming sockets, buckets) may reach private addresses only under a development switch.
        botHost: { sandboxHosts: config.sandboxHosts, privateAddressesAllowed: (config.allowPrivateStorageEndpoints ?? false) || (config.allowPrivateWebhookTargets ?? false) },
        slots: config.botSlots ?? defaultBotSlots(),
        workerId: context.instanceId,
        forgetControl: (botId) => contacts.forget(botId),
        log,
      });
      await dispatcher.start(context.readModels.position);
      return dispatcher;
    });
    const botWatch = partOf('bot-watch', async () => {
      const watch = new RunningBotsWatch({
        commands,
        readStore: context.readStore,
        workerId: context.instanceId,
        log,
        contacts,
        isChild: (botId) => dispatcher.current?.isRunningHere(botId) ?? false,
        ...overrides.botWatch,
      });
      await watch.start();
      return watch;
    });
    const vanishedWorkers = partOf(
      'vanished-workers',
      async () => {
        const sweep = endBotsOfVanishedWorkers({
          commands,
          readStore: context.readStore,
          checkpoints: context.checkpoints,
          contacts,
          log,
          silentForMs: leaseTiming.ttlMs,
          sweepMs: overrides.botWatch?.sweepMs ?? leaseTiming.renewEveryMs,
        });
        await sweep.runNow();
        return sweep;
      },
      { lease: 'vanished-workers' },
    );
    const scheduler = partOf(
      'scheduler',
      async () => {
        const scheduler = new BotScheduler({ commands, eventStore: context.eventStore, readStore: context.readStore, log });
        await scheduler.start(context.readModels.position);
        return scheduler;
      },
      { lease: 'scheduler' },
    );
    const httpDeps = { ...context, projections: context.readModels, control, sandboxHosts: config.sandboxHosts, dataAccess: dataAccess.tally };
    return {
      parts: [
        ...(api
          ? [
              controlPart,
              subscriberPart(context, 'settlement', () => settleTokensWhenBotEnds(context.eventStore)),
              subscriberPart(context, 'orphan-reservations', () => releaseOrphanReservations({ ...commands, log }, overrides.orphanReservationGraceMs)),
              dataAccessPart,
            ]
          : [apiReachable(context)]),
        ...(worker ? [heartbeat, dispatcher, botWatch] : []),
        ...(api ? [vanishedWorkers, scheduler] : []),
      ],
      publicRouters: api ? [botsRouter(httpDeps), legacyBotsRouter(httpDeps)] : [],
      unauthenticatedRouters: api
        ? [
            internalRouter({
              ...httpDeps,
              polls: control,
              contactRefreshMs: leaseTiming.renewEveryMs,
              uploads: {
                limits: { ...DEFAULT_ARTIFACT_SIZE_LIMITS, ...config.artifactSizeLimits },
                // Only the local folder shares the disk with the event log.
                diskSpace: context.objectStore.local ? freeSpaceGuard(config.dataDir, config.minFreeDiskBytes ?? DEFAULT_MIN_FREE_DISK_BYTES) : null,
              },
            }).routes(),
          ]
        : [],
      expose: { dispatcher, botWatch, scheduler, vanishedWorkers, control, dataAccess: dataAccess.tally },
    };
  },
};
