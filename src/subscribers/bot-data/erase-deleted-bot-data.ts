import type Logger from 'bunyan';
import type { EventStore } from '../../adapters/event-store/port';
import type { KeyVault } from '../../adapters/key-vault/port';
import type { ArtifactStores } from '../../adapters/object-store/artifact-stores';
import type { FieldValue, ReadStore } from '../../adapters/read-store/port';
import { handleBotCommand } from '../../commands/bot-commands';
import { nowIso, type CommandDeps } from '../../commands/command-deps';
import { recordStorageAccessFailure } from '../../commands/storage-commands';
import { BOT_DATA_ERASURES, type BotDataErasureView } from '../../projections/bot-data-erasure-view';
import { customerStorageOf } from '../../projections/bot-storage-view';
import { BOTS, type BotView } from '../../projections/bot-view';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { followLog } from '../follow-log';
import { periodicSweep, type PeriodicSweep } from '../periodic-sweep';
import { eraseBotObjects } from './erase-bot-objects';

export interface EraseDeletedBotDataDeps {
  readonly eventStore: EventStore;
  readonly readModels: ReadModelProgress;
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly stores: ArtifactStores;
  readonly keyVault: KeyVault;
  readonly log: Logger;
}

const PAGE = 100;

/**
 * The erasure of the bots whose data the team deleted, under the lease `data-erasure` (one process at a
 * time, whichever instance the deletion was asked on): each one's data key is destroyed (again: the
 * request did it, unless it stopped just before), then every object of the bot goes from every store that
 * may hold it, the team's buckets through the bot's service key included; once all are clean,
 * BotArtifactsErased is recorded, which the deleting request waits for. Its work list is a read model
 * (bot-data-erasure-view.ts), so a restart or a takeover resumes what was cut short: swept at the start,
 * at once for each deletion it sees in the log, and every `intervalMs` for a store that refused (reported
 * on the team's storage configuration as retention's refusals are). Every step is idempotent.
 */
export const eraseDeletedBotData = (deps: EraseDeletedBotDataDeps, intervalMs = 60_000): PeriodicSweep => {
  const eraseBot = async (erasure: BotDataErasureView): Promise<void> => {
    await deps.keyVault.destroy(erasure.id, erasure.deleted_at);
    const customer = await customerStorageOf(deps.readStore, erasure.id);
    const { failures } = await eraseBotObjects(deps.stores, customer?.storage ?? { kind: 'service' }, erasure.id);
    if (failures.length > 0) {
      deps.log.warn({ bot_id: erasure.id, failures }, "a deleted bot's artifacts could not all be erased: tried again at the next sweep");
      if (customer) await recordStorageAccessFailure(deps.commands, customer.team_id, customer.storage, `The service could not erase a deleted bot's artifacts: ${failures[0]}`);
      return;
    }
    const known = (await deps.readStore.get<BotView>(BOTS, erasure.id))?.doc.artifacts.map((a) => a.key) ?? [];
    await handleBotCommand(deps.commands, erasure.id, { type: 'RecordArtifactsErased', keys: known, now: nowIso(deps.commands) });
  };

  const erasePending = async () => {
    let after: readonly FieldValue[] | undefined;
    for (;;) {
      const page = await deps.readStore.find<BotDataErasureView>(BOT_DATA_ERASURES, {
        where: { pending: true },
        orderBy: [
          { field: 'deleted_at', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
        ...(after ? { startAfter: after } : {}),
        limit: PAGE,
      });
      for (const erasure of page) await eraseBot(erasure);
      const last = page[page.length - 1];
      if (page.length < PAGE || !last) return;
      after = [last.deleted_at, last.id];
    }
  };

  const sweep = periodicSweep('erase-deleted-bot-data', intervalMs, erasePending, deps.log);
  // A deletion asked on any instance: once the work list shows it, a sweep after the one under way.
  const following = followLog(deps.eventStore, { name: 'erase-deleted-bot-data', fromPosition: deps.readModels.position, log: deps.log }, async (event, recorded) => {
    if (event.type !== 'BotDataDeleted') return;
    await deps.readModels.waitForPosition(recorded.position);
    await sweep.runAfter();
  });
  // What was pending when this process took the lease (a restart, a takeover).
  void sweep.runAfter();
  return {
    ...sweep,
    stop: async () => {
      await following.stop();
      await sweep.stop();
    },
  };
};
