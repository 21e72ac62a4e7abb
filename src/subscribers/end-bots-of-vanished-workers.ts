import type Logger from 'bunyan';
import type { CheckpointStore } from '../adapters/checkpoint-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { failUnreportedBot } from '../commands/bot-commands';
import type { BotContacts } from '../commands/bot-contacts';
import type { CommandDeps } from '../commands/command-deps';
import { BOTS, type BotView } from '../projections/bot-view';
import { periodicSweep, type PeriodicSweep } from './periodic-sweep';

/** The heartbeat lease of a worker: held while the worker process lives (worker-heartbeat.ts). */
export const workerLeaseName = (workerId: string): string => `worker-${workerId}`;

export const VANISHED_WORKER_CODE = 'GENERAL_ERROR';

export interface VanishedWorkersDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly checkpoints: CheckpointStore;
  readonly contacts: BotContacts;
  readonly log: Logger;
  /** a bot of a vanished worker that has not called the service for this long has vanished with it */
  readonly silentForMs: number;
  readonly sweepMs: number;
}

/**
 * Ends the bots of workers that vanished: every running bot whose worker's heartbeat lease is not held
 * (the worker died, or its machine did) and that has not called the service for `silentForMs` (a bot
 * that lives on, its worker gone, keeps calling and ends as it reports) is failed with GENERAL_ERROR (a
 * crash of unknown cause: nothing is charged, and the reservation is released). Runs under its lease, in
 * one api process; the failing itself is an append with the expected revision, so a bot ends once.
 */
export const endBotsOfVanishedWorkers = (deps: VanishedWorkersDeps): PeriodicSweep =>
  periodicSweep(
    'end-bots-of-vanished-workers',
    deps.sweepMs,
    async () => {
      const running = await deps.readStore.find<BotView>(BOTS, { where: { ended_at: null, dispatched: true } });
      const byWorker = new Map<string, BotView[]>();
      for (const bot of running) if (bot.worker_id !== null) byWorker.set(bot.worker_id, [...(byWorker.get(bot.worker_id) ?? []), bot]);
      for (const [workerId, bots] of byWorker) {
        if ((await deps.checkpoints.readLease(workerLeaseName(workerId))) !== null) continue;
        const contacts = await deps.contacts.lastContactsOf(bots.map((b) => b.bot_id));
        const nowMs = deps.commands.clock().getTime();
        for (const bot of bots) {
          const contact = contacts.get(bot.bot_id);
          if (contact !== undefined && nowMs - contact < deps.silentForMs) continue;
          const failed = await failUnreportedBot(
            deps.commands,
            bot.bot_id,
            VANISHED_WORKER_CODE,
            `The worker running the bot (${workerId}) vanished, and the bot stopped calling the service.`,
          );
          if (failed._tag === 'Right' && failed.right.events.length > 0) deps.log.warn({ bot_id: bot.bot_id, worker_id: workerId }, 'ended a bot of a vanished worker');
        }
      }
    },
    deps.log,
  );
