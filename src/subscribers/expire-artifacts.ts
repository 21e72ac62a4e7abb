import type Logger from 'bunyan';
import type { ArtifactStores } from '../adapters/object-store/artifact-stores';
import type { FieldValue, ReadStore } from '../adapters/read-store/port';
import { handleBotCommand } from '../commands/bot-commands';
import { nowIso, type CommandDeps } from '../commands/command-deps';
import { recordStorageAccessFailure } from '../commands/storage-commands';
import { ARTIFACT_RETENTION, type ArtifactRetentionView } from '../projections/artifact-retention-view';
import { customerStorageOf } from '../projections/bot-storage-view';
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
 * each is deleted where it is (the team's bucket with the bot's service key, or the service's store) and
 * the deletions are recorded (ArtifactsExpired), so the bot's list says they expired. An artifact whose
 * deletion fails (the team withdrew the service's access) stays listed and is tried again next sweep.
 */
export const expireArtifacts = (deps: ExpireArtifactsDeps, intervalMs = 60 * 60 * 1000): PeriodicSweep => {
  const expireBot = async (bot: ArtifactRetentionView) => {
    const customer = await customerStorageOf(deps.readStore, bot.id);
    const storage = customer?.storage ?? ({ kind: 'service' } as const);
    const deleted: string[] = [];
    for (const [key, artifact] of Object.entries(bot.kept)) {
      const store = artifact.held_by === 'service' ? deps.stores.service : deps.stores.forBot(storage, artifact.artifact_type);
      try {
        await store.delete(`${bot.id}/${key}`);
        deleted.push(key);
      } catch (err) {
        deps.log.warn({ err, bot_id: bot.id, key }, 'an expired artifact could not be deleted');
        if (customer && artifact.held_by === 'bot') {
          await recordStorageAccessFailure(deps.commands, customer.team_id, customer.storage, `The service could not delete the expired ${key}: ${(err as Error).message}`);
        }
      }
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
