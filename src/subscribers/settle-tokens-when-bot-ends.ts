import * as E from 'fp-ts/Either';
import type { EventStore } from '../adapters/event-store/port';
import { handleTeamCommand } from '../commands/team-commands';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { BotCreated, botStreamName } from '../domain/bot/bot-events';
import type { BotFeatures } from '../domain/team/charge-by-outcome';
import type { Subscriber } from './subscriber-runner';

/**
 * A feature is charged for what it did, never for what was asked: transcription once a transcript was
 * produced, streaming per direction that connected. No bot event records either yet, so a bot is charged
 * for its recording only, whatever its configuration asks (a bot created before options were checked may
 * ask for transcription or streaming that never ran).
 */
const FEATURES_THAT_RAN: BotFeatures = { transcription: false, streamingDirections: 0 };

/**
 * When a bot ends, its reservation is settled on the team ledger by the spec's charging table. The ledger
 * ignores a second settlement of the same bot, so redelivery is harmless.
 */
export const settleTokensWhenBotEnds = (eventStore: EventStore): Subscriber => ({
  name: 'settle-tokens-when-bot-ends',
  handle: async (event) => {
    if (event.type !== 'BotCompleted' && event.type !== 'BotFailed') return;
    const [first] = await eventStore.readStream(botStreamName(event.data.bot_id));
    if (!first) return;
    const created = decodeRecordedEvent(BotCreated, first);
    const result = await handleTeamCommand({ eventStore }, created.data.team_id, {
      type: 'ChargeBot',
      bot_id: event.data.bot_id,
      error_code: event.type === 'BotCompleted' ? event.data.end_reason : event.data.error_code,
      usage: event.data.usage,
      features: FEATURES_THAT_RAN,
      now: event.data.at,
    });
    if (E.isLeft(result)) throw new Error(`cannot settle tokens of bot ${event.data.bot_id}: ${result.left.message}`);
  },
});
