import os from 'node:os';
import { BotControlHub } from '../adapters/bot-control/control-hub';
import { ChildProcessLauncher } from '../adapters/bot-launcher/child-process-launcher';
import { freeSpaceGuard } from '../adapters/disk/free-space';
import { DEFAULT_ARTIFACT_SIZE_LIMITS, DEFAULT_MIN_FREE_DISK_BYTES } from '../http/internal/upload-limits';
import { internalRouter } from '../http/internal/internal-router';
import { legacyBotsRouter } from '../http/legacy/bots-router';
import { botsRouter } from '../http/v2/bots-router';
import { botViewProjection } from '../projections/bot-view';
import { instanceViewProjection } from '../projections/instance-view';
import { legacyBotViewProjection } from '../projections/legacy-bot-view';
import { partOf } from '../subscribers/background/background-part';
import { BotDispatcher } from '../subscribers/dispatch-queued-bots';
import { BotScheduler } from '../subscribers/queue-scheduled-bots';
import { recordDataAccess } from '../subscribers/record-data-access';
import { releaseOrphanReservations } from '../subscribers/release-orphan-reservations';
import { settleTokensWhenBotEnds } from '../subscribers/settle-tokens-when-bot-ends';
import { uploadTargetFor } from '../subscribers/upload-target';
import { RunningBotsWatch } from '../subscribers/watch-running-bots';
import type { Capability, ServiceContext } from './capability';
import { subscriberPart } from './subscriber-part';

/** What fits this machine: one Chromium is ~420 MB PSS and an audio-only bot ~5 % of a core (ENVIRONMENT.md). */
export const defaultBotSlots = (): number => Math.max(1, Math.min(Math.floor(os.totalmem() / (600 * 2 ** 20)), os.cpus().length * 4));

/** The control channel of this process (bots' long polls), shared by the API and the worker parts. */
const controlHubs = new WeakMap<ServiceContext, BotControlHub>();
export const controlOf = (context: ServiceContext): BotControlHub => {
  let hub = controlHubs.get(context);
  if (!hub) {
    hub = new BotControlHub(context.nowMs);
    controlHubs.set(context, hub);
  }
  return hub;
};

/**
 * Bots: their read models, the API (v2, legacy, the bots' internal API), the ledger's subscribers
 * (settlement, orphan reservations), the scheduler, and, on a worker, the dispatcher and the watch of
 * its running bots.
 */
export const bots: Capability = {
  name: 'bots',
  projections: [botViewProjection, legacyBotViewProjection, instanceViewProjection],
  build: (context) => {
    const { commands, log, overrides, config } = context;
    const control = controlOf(context);
    const dataAccess = recordDataAccess(commands, log, overrides.dataAccess);
    const dataAccessPart = partOf('data-access', () => ({ stop: () => dataAccess.stop() }));
    const dispatcher = partOf('dispatcher', async () => {
      const dispatcher = new BotDispatcher({
        commands,
        eventStore: context.eventStore,
        readStore: context.readStore,
        launcher: overrides.launcher ?? new ChildProcessLauncher(log, { sandboxReplicas: config.sandboxReplicas, botTestCaPem: config.botTestCaPem }),
        signer: context.signer,
        serviceUrl: context.publicUrl(),
        uploadTarget: uploadTargetFor(context.secretBox, context.publicUrl(), context.objectStore.botUploads),
        slots: config.botSlots ?? defaultBotSlots(),
        sandboxHosts: config.sandboxHosts,
        workerId: context.instanceId,
        forgetControl: (botId) => control.forget(botId),
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
        lastContactMs: (botId) => control.lastContactMs(botId),
        forgetControl: (botId) => control.forget(botId),
        isChild: (botId) => dispatcher.current?.isRunningHere(botId) ?? false,
        ...overrides.botWatch,
      });
      await watch.start();
      return watch;
    });
    const scheduler = partOf(
      'scheduler',
      async () => {
        const scheduler = new BotScheduler({ commands, eventStore: context.eventStore, readStore: context.readStore, log });
        await scheduler.start(context.readModels.position);
        return scheduler;
      },
      { lease: 'scheduler' },
    );
    const api = context.roles.api;
    const worker = context.roles.worker;
    const httpDeps = { ...context, projections: context.readModels, control, sandboxHosts: config.sandboxHosts, dataAccess: dataAccess.tally };
    return {
      parts: [
        ...(api
          ? [
              subscriberPart(context, 'settlement', () => settleTokensWhenBotEnds(context.eventStore)),
              subscriberPart(context, 'orphan-reservations', () => releaseOrphanReservations({ ...commands, log }, overrides.orphanReservationGraceMs)),
              dataAccessPart,
            ]
          : []),
        ...(worker ? [dispatcher, botWatch] : []),
        ...(api ? [scheduler] : []),
      ],
      publicRouters: api ? [botsRouter(httpDeps), legacyBotsRouter(httpDeps)] : [],
      unauthenticatedRouters: api
        ? [
            internalRouter({
              ...httpDeps,
              uploads: {
                limits: { ...DEFAULT_ARTIFACT_SIZE_LIMITS, ...config.artifactSizeLimits },
                // Only the local folder shares the disk with the event log.
                diskSpace: context.objectStore.local ? freeSpaceGuard(config.dataDir, config.minFreeDiskBytes ?? DEFAULT_MIN_FREE_DISK_BYTES) : null,
              },
            }).routes(),
          ]
        : [],
      expose: { dispatcher, botWatch, scheduler, control, dataAccess: dataAccess.tally },
    };
  },
};
