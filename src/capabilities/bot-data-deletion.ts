import { botDataRouter } from '../http/bot-data/bot-data-router';
import { botDataErasureProjection } from '../projections/bot-data-erasure-view';
import { partOf } from '../subscribers/background/background-part';
import { botDataEraser, eraseDeletedBotData } from '../subscribers/bot-data/erase-deleted-bot-data';
import { forgetDeletedBotStates } from '../subscribers/bot-data/forget-deleted-bot-states';
import type { Capability } from './capability';

/**
 * Deleting a bot's data on the team's request (docs/decisions.md, issue 25): crypto-shredding, so the
 * sealing of bots' personal fields is not here but where the service opens the event log
 * (personal-data-log.ts); this is the rest. On an api process: the routes (v2 `DELETE
 * /v2/bots/{id}/delete-data`, legacy `POST /bots/{id}/delete_data`), which destroy the bot's key and erase
 * its artifacts at once, and the sweep that erases what a refusing store or a crash left (lease
 * `data-erasure`). In every process: forgetting what it folded of a deleted bot (its own memory, no lease).
 */
export const botDataDeletion: Capability = {
  name: 'bot-data-deletion',
  projections: [botDataErasureProjection],
  build: (context) => {
    const { commands, readStore, stores, keyVault, log, eventStore } = context;
    const forget = partOf('forget-deleted-bot-states', () => forgetDeletedBotStates({ eventStore, keyVault, log }, context.readModels.position));
    if (!context.roles.api) return { parts: [forget] };
    const eraser = botDataEraser({ commands, readStore, stores, keyVault, log });
    const erasure = partOf('data-erasure', () => eraseDeletedBotData(eraser, log, context.overrides.dataErasureSweepMs), { lease: 'data-erasure' });
    return {
      parts: [forget, erasure],
      publicRouters: [botDataRouter({ commands, readStore, projections: context.readModels, keyVault, eraseNow: eraser.eraseNow })],
      expose: { dataErasure: erasure },
    };
  },
};
