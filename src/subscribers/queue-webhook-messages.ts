import type { EventStore, RecordedEvent } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { CommandDeps } from '../commands/command-deps';
import { loadCalendar } from '../commands/calendar-commands';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { handleDeliveryCommand } from '../commands/webhook-commands';
import type { DomainEvent } from '../domain/all-events';
import { BotEvent, botStreamName, isBotEvent } from '../domain/bot/bot-events';
import { isCalendarEvent, type CalendarEvent } from '../domain/calendar/calendar-events';
import { botMessages, botWebhookFactsOf, messageIdOf, messageIdOfEvent, type BotWebhookFacts, type OutgoingMessage } from '../domain/webhooks/bot-webhook-messages';
import { deliveryStreamName, type DeliveryTarget } from '../domain/webhooks/webhook-delivery-events';
import { callbackEventTypes } from '../domain/webhooks/webhook-event-types';
import type { Subscriber } from './subscriber-runner';
import type { VcCredentialEvent } from '../domain/vc-credentials/vc-credential-events';
import { loadVcCredential } from '../commands/vc-credentials/vc-credential-store';
import { subjectOfVcCredential, vcCredentialInvalidMessage } from '../domain/webhooks/vc-credential-webhook-messages';
import { CalendarRounds } from './webhooks/calendar-rounds';
import { subjectOfCalendar } from './webhooks/calendar-subject';
import { loginMessageOf, makesLoginMessage } from './webhooks/login-messages';
import { subjectOfBot } from './webhooks/render-payload';
import { teamEndpointsFor } from './webhooks/team-endpoints';

export interface QueueWebhookMessagesDeps {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly commands: CommandDeps;
  /** resolves once the read models reflect `position` (false: not in time) */
  readonly waitForReadModels: (position: bigint) => Promise<boolean>;
  /** a message was queued: the delivery worker can look at once */
  readonly queued: () => void;
}

/** The events a bot's webhooks are made of; the others never send anything. */
const sendingBotEvents: ReadonlySet<string> = new Set(['StatusChanged', 'CallEnded', 'BotCompleted', 'BotFailed', 'TranscriptionCompleted', 'TranscriptionFailed']);

/**
 * Turns bot events into queued messages, one delivery stream per target and bot: the team's endpoints that
 * existed before the event (by log position), are on and subscribe to its kind, and the bot's own callback
 * for its final event; a legacy bot with its own webhook_url sends there instead of to the endpoints.
 * Queueing the same message twice is nothing, so seeing an event again is harmless.
 */
export const queueWebhookMessages = (deps: QueueWebhookMessagesDeps): Subscriber => {
  const endpointsFor = (teamId: string, eventType: string, position: bigint): Promise<DeliveryTarget[]> => teamEndpointsFor(deps, teamId, eventType, position);

  const callbackFor = (facts: BotWebhookFacts, eventType: string): DeliveryTarget[] =>
    facts.config.callback !== null && callbackEventTypes.includes(eventType) ? [{ kind: 'callback', bot_id: facts.bot_id }] : [];

  const queue = async (target: DeliveryTarget, subject: string, teamId: string, messageId: string, message: OutgoingMessage) =>
    handleDeliveryCommand(deps.commands, deliveryStreamName(target, subject), {
      type: 'QueueMessage',
      target,
      subject,
      team_id: teamId,
      message_id: messageId,
      callback: null,
      event_type: message.event_type,
      payload: message.payload,
      now: deps.commands.clock().toISOString(),
    });

  const rounds = new CalendarRounds();

  /**
   * A calendar's messages go to the webhook URL it was connected with, else to the team's endpoints. One
   * event may complete several (a round's series); each gets its own `webhook-id`, the same on a replay.
   */
  const queueCalendarMessages = async (event: CalendarEvent, recorded: RecordedEvent) => {
    // Most calendar events only add to a round; the calendar itself is read for those that send.
    if (!rounds.sends(event)) return void rounds.messagesOf(event, recorded.position, null);
    const calendar = await loadCalendar(deps.commands, event.data.calendar_id);
    if (calendar.kind === 'absent') return;
    // The calendar as it is now (bot parameters included): a replay after a crash may see newer ones, but a
    // message already queued keeps its first form (same message id).
    const messages = rounds.messagesOf(event, recorded.position, calendar);
    const subject = subjectOfCalendar(calendar.calendar_id);
    for (const [index, message] of messages.entries()) {
      const targets: DeliveryTarget[] =
        calendar.webhook_url !== null
          ? [{ kind: 'calendar', calendar_id: calendar.calendar_id }]
          : await endpointsFor(calendar.team_id, message.event_type, recorded.position);
      for (const target of targets) await queue(target, subject, calendar.team_id, `${messageIdOfEvent(recorded.id)}_${index}`, message);
    }
    if (messages.length > 0) deps.queued();
  };

  const targetsFor = async (facts: BotWebhookFacts, eventType: string, position: bigint): Promise<DeliveryTarget[]> => {
    if (facts.config.api === 'legacy' && facts.config.webhook_url !== null) return [{ kind: 'bot_webhook', bot_id: facts.bot_id }];
    return [...(await endpointsFor(facts.team_id, eventType, position)), ...callbackFor(facts, eventType)];
  };

  /** A vc credential the platform refused: to the team's endpoints (the credential has no URL of its own). */
  const queueVcCredentialMessage = async (event: Extract<VcCredentialEvent, { type: 'VcCredentialInvalidated' }>, recorded: RecordedEvent) => {
    const { current } = await loadVcCredential(deps.commands, event.data.credential_id);
    const message = vcCredentialInvalidMessage(event.data, current?.kind === 'oauth' ? current.vc_user_id : null);
    const targets = await endpointsFor(event.data.team_id, message.event_type, recorded.position);
    for (const target of targets) await queue(target, subjectOfVcCredential(event.data.credential_id), event.data.team_id, messageIdOfEvent(recorded.id), message);
    if (targets.length > 0) deps.queued();
  };

  /**
   * Signed-in bots' account messages (`login.invalid`, `workspace.invalid`, `login.saturated`): to the team's
   * endpoints. A saturation is queued with its bot's messages, so it goes before that bot's `bot.failed`.
   */
  const queueLoginMessage = async (event: DomainEvent, recorded: RecordedEvent) => {
    const outgoing = await loginMessageOf(deps, event, recorded.position);
    if (outgoing === null) return;
    const targets = await endpointsFor(outgoing.team_id, outgoing.message.event_type, recorded.position);
    for (const target of targets) await queue(target, outgoing.subject, outgoing.team_id, messageIdOfEvent(recorded.id), outgoing.message);
    if (targets.length > 0) deps.queued();
  };

  return {
    name: 'queue-webhook-messages',
    replayFrom: () => rounds.oldestOpen(),
    handle: async (event: DomainEvent, recorded: RecordedEvent) => {
      if (isCalendarEvent(event)) return queueCalendarMessages(event, recorded);
      if (event.type === 'VcCredentialInvalidated') return queueVcCredentialMessage(event, recorded);
      if (makesLoginMessage(event)) return queueLoginMessage(event, recorded);
      if (!isBotEvent(event) || !sendingBotEvents.has(event.type)) return;
      const history = await deps.eventStore.readStream(botStreamName(event.data.bot_id));
      // The bot as it was when this event happened, so that seeing it again later builds the same message.
      const facts = botWebhookFactsOf(history.filter((r) => r.revision <= recorded.revision).map((r) => decodeRecordedEvent(BotEvent, r)));
      if (facts === null) return;
      const subject = subjectOfBot(facts.bot_id);
      let queuedAny = false;
      for (const message of botMessages(facts, event)) {
        for (const target of await targetsFor(facts, message.event_type, recorded.position)) {
          await queue(target, subject, facts.team_id, messageIdOf(recorded.id, message), message);
          queuedAny = true;
        }
      }
      if (queuedAny) deps.queued();
    },
  };
};
