import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { KeyVault } from '../../adapters/key-vault/port';
import type { ArtifactStores } from '../../adapters/object-store/artifact-stores';
import type { FieldValue, ReadStore } from '../../adapters/read-store/port';
import { handleBotCommand } from '../../commands/bot-commands';
import { nowIso, type CommandDeps } from '../../commands/command-deps';
import { recordStorageAccessFailure } from '../../commands/storage-commands';
import { BOT_DATA_ERASURES, type BotDataErasureView } from '../../projections/bot-data-erasure-view';
import { customerStorageOf } from '../../projections/bot-storage-view';
import { BOTS, type BotView } from '../../projections/bot-view';
import { periodicSweep, type PeriodicSweep } from '../periodic-sweep';
import { eraseBotObjects } from './erase-bot-objects';

export interface EraseDeletedBotDataDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly stores: ArtifactStores;
  readonly keyVault: KeyVault;
  readonly log: Logger;
}

const PAGE = 100;

/** A bot's erasure: done (and the position of BotArtifactsErased when this call recorded it), or not yet because a store refused. */
export interface Erased {
  readonly erased: boolean;
  readonly position: bigint | null;
}

/**
 * The erasure of the bots whose data the team deleted: each one's data key is destroyed (again: the request
 * did it, unless it crashed just before), then every object of the bot goes from every store that may hold
 * it, the team's buckets through the bot's service key included; once all are clean, BotArtifactsErased is
 * recorded. A store that refuses is retried at the next sweep, and reported on the team's storage
 * configuration as retention's refusals are. Every step is idempotent: the request's own erasure and the
 * sweep may meet on one bot without harm (the decider records the erasure once).
 */
export interface DataEraser {
  /** erases one bot now (a deletion request waits for it) */
  eraseNow(botId: string): Promise<Erased>;
  /** erases every bot still pending, oldest deletion first */
  erasePending(): Promise<void>;
}

export const botDataEraser = (deps: EraseDeletedBotDataDeps): DataEraser => {
  const eraseBot = async (erasure: BotDataErasureView): Promise<Erased> => {
    await deps.keyVault.destroy(erasure.id, erasure.deleted_at);
    const customer = await customerStorageOf(deps.readStore, erasure.id);
    const { failures } = await eraseBotObjects(deps.stores, customer?.storage ?? { kind: 'service' }, erasure.id);
    if (failures.length > 0) {
      deps.log.warn({ bot_id: erasure.id, failures }, "a deleted bot's artifacts could not all be erased: tried again at the next sweep");
      if (customer) await recordStorageAccessFailure(deps.commands, customer.team_id, customer.storage, `The service could not erase a deleted bot's artifacts: ${failures[0]}`);
      return { erased: false, position: null };
    }
    const known = (await deps.readStore.get<BotView>(BOTS, erasure.id))?.doc.artifacts.map((a) => a.key) ?? [];
    const recorded = await handleBotCommand(deps.commands, erasure.id, { type: 'RecordArtifactsErased', keys: known, now: nowIso(deps.commands) });
    return { erased: true, position: E.isRight(recorded) ? recorded.right.position : null };
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

  return {
    erasePending,
    eraseNow: async (botId) => {
      const erasure = (await deps.readStore.get<BotDataErasureView>(BOT_DATA_ERASURES, botId))?.doc;
      if (!erasure) return { erased: false, position: null };
      return erasure.pending ? eraseBot(erasure) : { erased: true, position: null };
    },
  };
};

/** The sweep over the erasures still pending (a read model, so a restart resumes them), every `intervalMs`. */
export const eraseDeletedBotData = (eraser: DataEraser, log: Logger, intervalMs = 60_000): PeriodicSweep =>
  periodicSweep('erase-deleted-bot-data', intervalMs, eraser.erasePending, log);
