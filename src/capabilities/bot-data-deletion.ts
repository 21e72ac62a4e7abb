import type Logger from 'bunyan';
import type Router from '@koa/router';
import type { KeyVault } from '../adapters/key-vault/port';
import type { ArtifactStores } from '../adapters/object-store/artifact-stores';
import type { ReadStore } from '../adapters/read-store/port';
import type { CommandDeps } from '../commands/command-deps';
import type { AppState } from '../http/app-context';
import { botDataRouter } from '../http/bot-data/bot-data-router';
import type { ProjectionRunner } from '../projections/projection-runner';
import { eraseDeletedBotData } from '../subscribers/bot-data/erase-deleted-bot-data';
import type { PeriodicSweep } from '../subscribers/periodic-sweep';

export interface BotDataDeletionDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ProjectionRunner;
  readonly stores: ArtifactStores;
  readonly keyVault: KeyVault;
  readonly log: Logger;
}

export interface BotDataDeletion {
  /** the authenticated routes: v2 DELETE /v2/bots/{id}/delete-data, legacy POST /bots/{id}/delete_data */
  readonly router: Router<AppState>;
  /** the erasure of deleted bots' artifacts still pending (also after a restart) */
  readonly erasure: PeriodicSweep;
  stop(): Promise<void>;
}

/** Deleting a bot's data on request: its routes and the sweep that erases its artifacts (its projection is in all-projections). */
export const botDataDeletion = (deps: BotDataDeletionDeps, options: { readonly sweepMs?: number; readonly erasureWaitMs?: number } = {}): BotDataDeletion => {
  const eraser = eraseDeletedBotData(deps, options.sweepMs);
  return {
    router: botDataRouter({ ...deps, eraser, ...(options.erasureWaitMs === undefined ? {} : { erasureWaitMs: options.erasureWaitMs }) }),
    erasure: eraser.sweep,
    stop: () => eraser.sweep.stop(),
  };
};
