import * as E from 'fp-ts/Either';
import { BotEvent, botStreamName } from '../domain/bot/bot-events';
import { botMessages, botWebhookFactsOf, messageIdOfEvent, type OutgoingMessage } from '../domain/webhooks/bot-webhook-messages';
import { deliveryStreamName, type CallbackOverride, type DeliveryTarget } from '../domain/webhooks/webhook-delivery-events';
import { nowIso, type CommandDeps } from './command-deps';
import { decodeRecordedEvent } from './decode-recorded-event';
import { handleDeliveryCommand, loadDeliveries } from './webhook-commands';

/** v2's and the legacy API's final events. */
const finalEventTypes: readonly string[] = ['bot.completed', 'bot.failed', 'complete', 'failed'];

export interface FinalMessage extends OutgoingMessage {
  readonly message_id: string;
  readonly team_id: string;
  readonly subject: string;
}

/**
 * A bot's final event (bot.completed or bot.failed) as it was first sent; null before it is sent (while the
 * bot runs, or while its first transcription runs: bot.completed waits for it).
 */
export const finalMessageOfBot = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<FinalMessage | null> => {
  const history = (await deps.eventStore.readStream(botStreamName(botId))).map((r) => ({ recorded: r, event: decodeRecordedEvent(BotEvent, r) }));
  const ended = history.findIndex(({ event }) => event.type === 'BotCompleted' || event.type === 'BotFailed');
  if (ended < 0) return null;
  for (let at = ended; at < history.length; at++) {
    const facts = botWebhookFactsOf(history.slice(0, at + 1).map(({ event }) => event));
    // The final event is the end's main message (a legacy end sends a status before it).
    const message = facts && botMessages(facts, history[at]!.event).find((m) => m.id_suffix === undefined && finalEventTypes.includes(m.event_type));
    if (facts && message) return { ...message, message_id: messageIdOfEvent(history[at]!.recorded.id), team_id: facts.team_id, subject: `bot-${botId}` };
  }
  return null;
};

/**
 * Sends a bot's final event again to a target, with fresh links: the same message (same `webhook-id`) goes
 * out again where it went before, or is queued for a target that never had it (an endpoint added later,
 * a callback named only now). Nothing when it is still on its way. Returns whether it will be sent.
 */
export const redeliverFinalMessage = async (
  deps: CommandDeps,
  final: FinalMessage,
  target: DeliveryTarget,
  request: { readonly request_id: string; readonly callback: CallbackOverride | null },
): Promise<boolean> => {
  const stream = deliveryStreamName(target, final.subject);
  const state = await loadDeliveries(deps, stream);
  const known = state.kind === 'present' && state.messages.some((m) => m.message_id === final.message_id);
  const now = nowIso(deps);
  const result = known
    ? await handleDeliveryCommand(deps, stream, { type: 'Requeue', message_id: final.message_id, request_id: request.request_id, callback: request.callback, now })
    : await handleDeliveryCommand(deps, stream, {
        type: 'QueueMessage', target, subject: final.subject, team_id: final.team_id, message_id: final.message_id,
        event_type: final.event_type, payload: final.payload, callback: request.callback, now,
      });
  if (E.isLeft(result)) throw new Error(`cannot redeliver ${final.message_id}: ${result.left.message}`);
  return result.right.events.length > 0;
};
