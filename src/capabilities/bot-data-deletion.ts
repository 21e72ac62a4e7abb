import { botDataRouter } from '../http/bot-data/bot-data-router';
import { botDataRouteDocs } from '../http/bot-data/bot-data-router-doc';
import { botDataErasureProjection } from '../projections/bot-data-erasure-view';
import { partOf } from '../subscribers/background/background-part';
import { DeletedBotDataWatch } from '../subscribers/bot-data/deleted-bot-data-watch';
import { eraseDeletedBotData } from '../subscribers/bot-data/erase-deleted-bot-data';
import type { Capability } from './capability';

/**
 * Deleting a bot's data on the team's request (docs/decisions.md, issue 25): crypto-shredding, so the
 * sealing of bots' personal fields is not here but where the service opens the event log
 * (personal-data-log.ts); this is the rest. On an api process: the routes (v2 `DELETE
 * /v2/bots/{id}/delete-data`, legacy `POST /bots/{id}/delete_data`), which record the deletion and destroy
 * the bot's key, then wait for the erasure of its artifacts, which runs under the lease `data-erasure`.
 * In every process: the watch that forgets what it folded of a deleted bot and wakes the waiting requests
 * (its own memory: no lease).
 */
export const botDataDeletion: Capability = {
  name: 'bot-data-deletion',
  projections: [botDataErasureProjection],
  apiDocs: [botDataRouteDocs],
  build: (context) => {
    const { commands, readStore, stores, keyVault, log, eventStore, readModels } = context;
    const watch = new DeletedBotDataWatch({ eventStore, keyVault, log });
    const watchPart = partOf('deleted-bot-data-watch', () => (watch.start(readModels.position), watch));
    if (!context.roles.api) return { parts: [watchPart] };
    const erasure = partOf(
      'data-erasure',
      () => eraseDeletedBotData({ eventStore, readModels, commands, readStore, stores, keyVault, log }, context.overrides.dataErasureSweepMs),
      { lease: 'data-erasure' },
    );
    return {
      parts: [watchPart, erasure],
      publicRouters: [
        botDataRouter({
          commands, readStore, projections: readModels, keyVault, erasures: watch,
          ...(context.overrides.dataErasureWaitMs === undefined ? {} : { erasureWaitMs: context.overrides.dataErasureWaitMs }),
        }),
      ],
      expose: { dataErasure: erasure },
    };
  },
};
