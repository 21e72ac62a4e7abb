import type Logger from 'bunyan';
import type { ArtifactStores } from '../adapters/object-store/artifact-stores';
import type { ReadStore } from '../adapters/read-store/port';
import { handleBotCommand } from '../commands/bot-commands';
import { nowIso, type CommandDeps } from '../commands/command-deps';
import { recordStorageAccessFailure } from '../commands/storage-commands';
import { botStorageOf, customerStorageOf } from '../projections/bot-storage-view';
import { SPILLED_ARTIFACTS, type SpilledArtifactsView } from '../projections/spilled-artifact-view';
import { periodicSweep, type PeriodicSweep } from './periodic-sweep';

export interface SpillUploaderDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly stores: ArtifactStores;
  readonly log: Logger;
}

/** A bucket that refuses is tried again soon, then less often: at most every 5 minutes. */
const MAX_BACKOFF_MS = 5 * 60 * 1000;

/**
 * The service's side of transient spill: every artifact it holds for a team's bucket is uploaded there
 * with the bot's service key, retried until the bucket accepts it; then the artifact is recorded stored
 * and the service's copy deleted. Its work list is a read model (spilled_artifacts) and its progress the
 * ArtifactStored events, so a restart resumes where it was.
 */
export const uploadSpilledArtifacts = (deps: SpillUploaderDeps, intervalMs = 10_000): PeriodicSweep => {
  // When each artifact may be tried again, and how long it waited last: in memory, a restart tries at once.
  const backoff = new Map<string, { readonly nextMs: number; readonly waitMs: number }>();

  const upload = async (botId: string, key: string, artifact: SpilledArtifactsView['held'][string]) => {
    const objectKey = `${botId}/${key}`;
    const copy = await deps.stores.service.get(objectKey);
    if (!copy) {
      deps.log.error({ bot_id: botId, key }, 'a spilled artifact has no copy in the service store');
      return;
    }
    const target = deps.stores.forBot(await botStorageOf(deps.readStore, botId), artifact.artifact_type);
    const { sizeBytes } = await target.put(objectKey, copy.body, artifact.content_type);
    await handleBotCommand(deps.commands, botId, {
      type: 'RecordArtifact',
      artifact_type: artifact.artifact_type,
      key,
      content_type: artifact.content_type,
      size_bytes: sizeBytes,
      now: nowIso(deps.commands),
    });
    await deps.stores.service.delete(objectKey);
    deps.log.info({ bot_id: botId, key }, 'a spilled artifact reached its bucket');
  };

  const sweep = async () => {
    const nowMs = Date.now();
    const bots = await deps.readStore.find<SpilledArtifactsView>(SPILLED_ARTIFACTS, { where: { pending: true }, orderBy: [{ field: 'id', direction: 'asc' }], limit: 200 });
    for (const bot of bots) {
      for (const [key, artifact] of Object.entries(bot.held)) {
        const id = `${bot.id}/${key}`;
        const wait = backoff.get(id);
        if (wait && wait.nextMs > nowMs) continue;
        try {
          await upload(bot.id, key, artifact);
          backoff.delete(id);
        } catch (err) {
          const waitMs = Math.min(MAX_BACKOFF_MS, wait ? wait.waitMs * 2 : intervalMs);
          backoff.set(id, { nextMs: nowMs + waitMs, waitMs });
          deps.log.warn({ err, bot_id: bot.id, key, retry_in_ms: waitMs }, 'the bucket still refuses a spilled artifact');
          const customer = await customerStorageOf(deps.readStore, bot.id);
          if (customer) await recordStorageAccessFailure(deps.commands, customer.team_id, customer.storage, `The service could not upload the copy it holds of ${key}: ${(err as Error).message}`);
        }
      }
    }
  };

  return periodicSweep('upload-spilled-artifacts', intervalMs, sweep, deps.log);
};
