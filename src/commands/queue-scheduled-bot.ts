import * as E from 'fp-ts/Either';
import { missedTimeMessage, SCHEDULED_TIME_MISSED, startVerdict } from '../domain/bot/schedule-timing';
import { handleBotCommand, loadBot } from './bot-commands';
import { nowIso, type CommandDeps } from './command-deps';
import { abandonCreation, admitBot } from './create-bot';

/**
 * What became of a scheduled bot the scheduler tried: queued like a new bot; refused (it ended failed
 * with the reason); not yet due; no longer scheduled (cancelled or queued meanwhile); or changed while it
 * was being queued (its new time decides when to try again).
 */
export type QueueOutcome = 'queued' | 'refused' | 'not_due' | 'not_scheduled' | 'changed';

/**
 * Queues a scheduled bot at its time (or `aheadMs` before, when the scheduler says so) exactly as POST
 * /v2/bots creates one: daily cap, then tokens, then deduplication, all checked now (admitBot), and only
 * then its BotCreated. A refusal ends the bot failed
 * with the refusal's code (DAILY_BOT_CAP_REACHED, INSUFFICIENT_TOKENS, BOT_ALREADY_EXISTS), which is what
 * sends its bot.failed. Every step is idempotent, so a queueing cut short by a crash is finished (or undone,
 * when too late) by the next try of the restarted scheduler.
 */
export const queueScheduledBot = async (deps: CommandDeps, botId: string, options: { readonly aheadMs?: number } = {}): Promise<QueueOutcome> => {
  const bot = await loadBot(deps, botId);
  if (bot.kind !== 'present' || bot.schedule === null || bot.status !== 'scheduled') return 'not_scheduled';
  const { join_at, definition, version } = bot.schedule;
  const now = nowIso(deps);
  const verdict = startVerdict(join_at, now, options.aheadMs ?? 0);
  if (verdict.kind === 'wait') return 'not_due';

  const refuse = async (error_code: string, error_message: string): Promise<QueueOutcome> => {
    const refused = await handleBotCommand(deps, botId, { type: 'RefuseScheduledBot', error_code, error_message, now });
    return E.isRight(refused) ? 'refused' : 'not_scheduled';
  };
  const { meeting_url, config } = definition;
  if (verdict.kind === 'missed') {
    // An earlier try cut short by the crash may hold a reservation, a registration and a key claim: all go back first.
    await abandonCreation(deps, { team_id: bot.team_id, meeting_url, bot_id: botId, deduplication_key: config.deduplication_key });
    return refuse(SCHEDULED_TIME_MISSED, missedTimeMessage(join_at, verdict.lateMs));
  }

  const admitted = await admitBot(
    deps,
    {
      bot_id: botId,
      team_id: bot.team_id,
      meeting_url,
      allow_multiple_bots: config.allow_multiple_bots,
      deduplication_key: config.deduplication_key,
      now,
    },
    (settings) => handleBotCommand(deps, botId, { type: 'QueueScheduledBot', schedule_version: version, settings, now }),
  );
  if (E.isRight(admitted)) return 'queued';
  const refusal = admitted.left;
  switch (refusal.code) {
    case 'DAILY_BOT_CAP_REACHED':
    case 'INSUFFICIENT_TOKENS':
    case 'BOT_ALREADY_EXISTS':
      return refuse(refusal.code, refusal.message);
    case 'SCHEDULE_CHANGED':
      return 'changed';
    default:
      // Cancelled (or ended) while it was being admitted: what admitBot took is already given back.
      return 'not_scheduled';
  }
};
