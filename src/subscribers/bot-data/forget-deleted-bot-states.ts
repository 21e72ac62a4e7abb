import type Logger from 'bunyan';
import type { EventStore, Subscription } from '../../adapters/event-store/port';
import type { KeyVault } from '../../adapters/key-vault/port';
import { forgetFoldedStatesOf } from '../../commands/delete-bot-data';
import { followLog } from '../follow-log';

export interface ForgetDeletedBotStatesDeps {
  readonly eventStore: EventStore;
  readonly keyVault: KeyVault;
  readonly log: Logger;
}

/**
 * Every process drops what it folded of a bot whose data was deleted, wherever the deletion was asked:
 * states folded before (a queued webhook's payload, in the process that holds the delivery lease) hold
 * the bot's personal fields as they read then. It follows the log live, from where this process's read
 * models were at its start (what it folded before that is gone with its memory), and makes sure the key is
 * destroyed before forgetting (idempotent: the deleting request did it a moment after recording the
 * deletion), so that no state is folded again with the key still live. Nothing here must survive a
 * restart: it is this process's memory, so it runs in every process, under no lease.
 */
export const forgetDeletedBotStates = (deps: ForgetDeletedBotStatesDeps, fromPosition: bigint | null): Subscription =>
  followLog(deps.eventStore, { name: 'forget-deleted-bot-states', fromPosition, log: deps.log }, async (event) => {
    if (event.type !== 'BotDataDeleted') return;
    await deps.keyVault.destroy(event.data.bot_id, event.data.at);
    forgetFoldedStatesOf(deps.eventStore, event.data.bot_id);
  });
