import type { ReadStore } from '../../adapters/read-store/port';
import { BOTS, type BotView } from '../../projections/bot-view';
import { notFound } from '../api-error';
import type { Caller } from '../app-context';

/** A team never sees another team's bots: for them the bot does not exist. */
export const findBotOfCaller = async (readStore: ReadStore, caller: Caller, botId: string): Promise<BotView> => {
  const stored = await readStore.get<BotView>(BOTS, botId);
  if (!stored || stored.doc.team_id !== caller.team_id) throw notFound('FST_ERR_BOT_NOT_FOUND', 'Bot not found');
  return stored.doc;
};
