import * as E from 'fp-ts/Either';
import type { EventStore } from '../adapters/event-store/port';
import { loadBotFacts } from '../commands/bot-commands';
import { handleTeamCommand } from '../commands/team-commands';
import type { DomainEvent } from '../domain/all-events';
import { INITIAL_TRANSCRIPTION, type Usage } from '../domain/bot/bot-events';
import { wasQueued, type QueuedBotFacts } from '../domain/bot/bot-facts';
import { TRANSCRIPTION_FAILED } from '../domain/bot/end-codes';
import type { Subscriber } from './subscriber-runner';

interface Settlement {
  readonly error_code: string;
  readonly usage: Usage;
  readonly transcribed: boolean;
  readonly now: string;
}

/** The bot an event may settle: its end, or the end of its first transcription. */
const botSettledBy = (event: DomainEvent): string | null => {
  if (event.type === 'BotFailed' || event.type === 'BotCompleted') return event.data.bot_id;
  if ((event.type === 'TranscriptionCompleted' || event.type === 'TranscriptionFailed') && event.data.request_id === INITIAL_TRANSCRIPTION) return event.data.bot_id;
  return null;
};

/** What the event settles for the bot, or null when it settles nothing (a completion whose transcription is still due). */
const settlementOf = (bot: QueuedBotFacts, event: DomainEvent): Settlement | null => {
  if (event.type === 'BotFailed') {
    const { error_code, usage, at } = event.data;
    return { error_code, usage, transcribed: false, now: at };
  }
  if (event.type === 'BotCompleted') {
    if (bot.run_config.transcription !== null) return null;
    const { end_reason, usage, at } = event.data;
    return { error_code: end_reason, usage, transcribed: false, now: at };
  }
  if ((event.type === 'TranscriptionCompleted' || event.type === 'TranscriptionFailed') && bot.outcome?.status === 'completed') {
    const transcribed = event.type === 'TranscriptionCompleted';
    return { error_code: transcribed ? bot.outcome.end_reason : TRANSCRIPTION_FAILED, usage: bot.outcome.usage, transcribed, now: event.data.at };
  }
  return null;
};

/**
 * When a bot ends, its reservation is settled on the team ledger by the spec's charging table. A feature is
 * charged for what it did, never for what was asked: a bot that asked for transcription is settled when its
 * first transcription ends, with transcription only if a transcript came out (TRANSCRIPTION_FAILED charges
 * recording alone). Streaming is charged per direction for the seconds the bot reported it connected while
 * recording (its end's usage). The ledger ignores a second settlement of the same bot, so redelivery is harmless.
 */
export const settleTokensWhenBotEnds = (eventStore: EventStore): Subscriber => ({
  name: 'settle-tokens-when-bot-ends',
  handle: async (event) => {
    const botId = botSettledBy(event);
    if (botId === null) return;
    const bot = await loadBotFacts({ eventStore }, botId);
    // A scheduled bot that ended before its time (cancelled, refused) was never queued: nothing to settle,
    // and whatever its queueing took was given back by the queueing itself.
    if (!wasQueued(bot)) return;
    const due = settlementOf(bot, event);
    if (due === null) return;
    const { error_code, usage, transcribed, now } = due;
    const result = await handleTeamCommand({ eventStore }, bot.team_id, {
      type: 'ChargeBot',
      bot_id: botId,
      error_code,
      usage,
      features: { transcription: transcribed },
      now,
    });
    if (E.isLeft(result)) throw new Error(`cannot settle tokens of bot ${botId}: ${result.left.message}`);
  },
});
