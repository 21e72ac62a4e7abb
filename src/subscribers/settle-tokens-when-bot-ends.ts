import * as E from 'fp-ts/Either';
import type { EventStore } from '../adapters/event-store/port';
import { handleTeamCommand } from '../commands/team-commands';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import type { DomainEvent } from '../domain/all-events';
import { BotCompleted, BotCreated, botStreamName, INITIAL_TRANSCRIPTION, type Usage } from '../domain/bot/bot-events';
import { TRANSCRIPTION_FAILED } from '../domain/bot/end-codes';
import type { Subscriber } from './subscriber-runner';

interface Settlement {
  readonly error_code: string;
  readonly usage: Usage;
  readonly transcribed: boolean;
  readonly now: string;
}

/**
 * When a bot ends, its reservation is settled on the team ledger by the spec's charging table. A feature is
 * charged for what it did, never for what was asked: a bot that asked for transcription is settled when its
 * first transcription ends, with transcription only if a transcript came out (TRANSCRIPTION_FAILED charges
 * recording alone). Streaming is charged per direction for the seconds the bot reported it connected while
 * recording (its end's usage). The ledger ignores a second settlement of the same bot, so redelivery is harmless.
 */
export const settleTokensWhenBotEnds = (eventStore: EventStore): Subscriber => {
  const createdOf = async (botId: string) => (await eventStore.readStream(botStreamName(botId))).find((e) => e.type === 'BotCreated');

  const settlementOf = async (event: DomainEvent): Promise<{ bot_id: string; settlement: Settlement } | null> => {
    if (event.type === 'BotFailed') {
      const { bot_id, error_code, usage, at } = event.data;
      return { bot_id, settlement: { error_code, usage, transcribed: false, now: at } };
    }
    if (event.type === 'BotCompleted') {
      const first = await createdOf(event.data.bot_id);
      if (!first || decodeRecordedEvent(BotCreated, first).data.config.transcription !== null) return null;
      const { bot_id, end_reason, usage, at } = event.data;
      return { bot_id, settlement: { error_code: end_reason, usage, transcribed: false, now: at } };
    }
    if ((event.type === 'TranscriptionCompleted' || event.type === 'TranscriptionFailed') && event.data.request_id === INITIAL_TRANSCRIPTION) {
      const recorded = (await eventStore.readStream(botStreamName(event.data.bot_id))).find((r) => r.type === 'BotCompleted');
      if (!recorded) return null;
      const completed = decodeRecordedEvent(BotCompleted, recorded).data;
      const transcribed = event.type === 'TranscriptionCompleted';
      return {
        bot_id: event.data.bot_id,
        settlement: { error_code: transcribed ? completed.end_reason : TRANSCRIPTION_FAILED, usage: completed.usage, transcribed, now: event.data.at },
      };
    }
    return null;
  };

  return {
    name: 'settle-tokens-when-bot-ends',
    handle: async (event) => {
      const due = await settlementOf(event);
      if (due === null) return;
      // A scheduled bot that ended before its time (cancelled, refused) was never queued: nothing to settle,
      // and whatever its queueing took was given back by the queueing itself.
      const first = await createdOf(due.bot_id);
      if (!first) return;
      const created = decodeRecordedEvent(BotCreated, first);
      const { error_code, usage, transcribed, now } = due.settlement;
      const result = await handleTeamCommand({ eventStore }, created.data.team_id, {
        type: 'ChargeBot',
        bot_id: due.bot_id,
        error_code,
        usage,
        features: { transcription: transcribed },
        now,
      });
      if (E.isLeft(result)) throw new Error(`cannot settle tokens of bot ${due.bot_id}: ${result.left.message}`);
    },
  };
};
