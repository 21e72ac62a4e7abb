import type Logger from 'bunyan';
import type { ArtifactStores } from '../adapters/object-store/artifact-stores';
import type { FieldValue, ReadStore } from '../adapters/read-store/port';
import { handleBotCommand } from '../commands/bot-commands';
import { nowIso, type CommandDeps } from '../commands/command-deps';
import { recordStorageAccessFailure } from '../commands/storage-commands';
import { ARTIFACT_RETENTION, type ArtifactRetentionView } from '../projections/artifact-retention-view';
import { customerStorageOf } from '../projections/bot-storage-view';
import { eraseBotObjects } from './bot-data/erase-bot-objects';
import { periodicSweep, type PeriodicSweep } from './periodic-sweep';

export interface ExpireArtifactsDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly stores: ArtifactStores;
  readonly log: Logger;
}

const PAGE = 100;

/**
 * Retention: once a bot's artifacts are past its expiry (its end plus the retention fixed at its creation),
 * every object of the bot is erased from where it is (the team's buckets with the bot's service key, the
 * service's store), by the erasure a deletion of the bot's data uses, and the deletions are recorded
 * (ArtifactsExpired), so the bot's list says they expired. An artifact whose store refuses (the team withdrew
 * the service's access) stays listed and is tried again next sweep.
 */
export const expireArtifacts = (deps: ExpireArtifactsDeps, intervalMs = 60 * 60 * 1000): PeriodicSweep => {
  const expireBot = async (bot: ArtifactRetentionView) => {
    const customer = await customerStorageOf(deps.readStore, bot.id);
    const storage = customer?.storage ?? ({ kind: 'service' } as const);
    // The same erasure as a deletion of the bot's data: every object of the bot, wherever it is.
    const { clean, failures } = await eraseBotObjects(deps.stores, storage, bot.id);
    const storeOf = (artifact: { readonly artifact_type: string; readonly held_by: 'bot' | 'service' }) =>
      artifact.held_by === 'service' ? deps.stores.service : deps.stores.forBot(storage, artifact.artifact_type);
    const deleted = Object.entries(bot.kept)
      .filter(([, artifact]) => clean.has(storeOf(artifact)))
      .map(([key]) => key);
    if (failures.length > 0) {
      deps.log.warn({ bot_id: bot.id, failures }, 'expired artifacts could not all be deleted: tried again at the next sweep');
      if (customer) await recordStorageAccessFailure(deps.commands, customer.team_id, customer.storage, `The service could not delete expired artifacts: ${failures[0]}`);
    }
    if (deleted.length > 0) await handleBotCommand(deps.commands, bot.id, { type: 'ExpireArtifacts', keys: deleted, now: nowIso(deps.commands) });
  };

  const sweep = async () => {
    const now = deps.commands.clock().toISOString();
    let after: readonly FieldValue[] | undefined;
    for (;;) {
      const page = await deps.readStore.find<ArtifactRetentionView>(ARTIFACT_RETENTION, {
        where: { due: true },
        orderBy: [
          { field: 'expires_at', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
        ...(after ? { startAfter: after } : {}),
        limit: PAGE,
      });
      for (const bot of page) {
        // Ordered by expiry: the first one not due yet ends the sweep.
        if (bot.expires_at === null || bot.expires_at > now) return;
        await expireBot(bot);
      }
      const last = page[page.length - 1];
      if (page.length < PAGE || !last) return;
      after = [last.expires_at, last.id];
    }
  };

  return periodicSweep('expire-artifacts', intervalMs, sweep, deps.log);
};
