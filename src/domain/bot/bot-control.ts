import * as E from 'fp-ts/Either';
import type { BotStatus } from './bot-status';
import { isInCall, isTerminal } from './bot-status';
import type { BotEvent, ChatFailure } from './bot-events';

/**
 * Control requests are recorded on the bot's stream, so that any api instance can hand them to the bot's
 * long poll and any instance can tell the answer: leave (standing until the bot acknowledges it) and chat
 * messages (each until the bot answers, or the API gives up on it).
 */
export interface ControlState {
  /** chat requests by id: their message, and whether they have an outcome */
  readonly chat: Readonly<Record<string, { readonly message: string; readonly answered: boolean }>>;
  readonly leaveAcknowledged: boolean;
}

export const initialControl: ControlState = { chat: {}, leaveAcknowledged: false };

/** The id of the standing leave (one per bot: a leave asked twice is one leave). */
export const STANDING_LEAVE_ID = 'leave-requested';

export type PendingControlRequest = { readonly id: string; readonly kind: 'leave' } | { readonly id: string; readonly kind: 'chat'; readonly message: string };

export type BotControlCommand =
  /** POST send_chat_message: recorded only while the bot is in the call (409 otherwise). */
  | { readonly type: 'RequestChatMessage'; readonly request_id: string; readonly message: string; readonly now: string }
  /** The bot's answer (any instance), or `unreachable` when it did not answer in time; the first outcome counts. */
  | { readonly type: 'RecordChatAnswer'; readonly request_id: string; readonly outcome: { readonly ok: true } | { readonly ok: false; readonly reason: ChatFailure; readonly message: string }; readonly now: string }
  | { readonly type: 'AcknowledgeLeave'; readonly now: string };

interface ControlledBot {
  readonly bot_id: string;
  readonly status: BotStatus;
  readonly leaveRequested: boolean;
  readonly control: ControlState;
}

type Rejection = { readonly code: 'BOT_STATUS'; readonly message: string; readonly status: BotStatus };

export const decideControl = (command: BotControlCommand, bot: ControlledBot): E.Either<Rejection, readonly BotEvent[]> => {
  const { bot_id } = bot;
  switch (command.type) {
    case 'RequestChatMessage':
      if (bot.control.chat[command.request_id]) return E.right([]);
      if (!isInCall(bot.status)) {
        return E.left({ code: 'BOT_STATUS', message: `Chat messages can only be sent while the bot is in the call (status: ${bot.status})`, status: bot.status });
      }
      return E.right([{ type: 'ChatMessageRequested', data: { bot_id, request_id: command.request_id, message: command.message, at: command.now } }]);
    case 'RecordChatAnswer': {
      // Recorded whatever the status is now: the bot may have ended after it posted the message.
      const request = bot.control.chat[command.request_id];
      if (!request || request.answered) return E.right([]);
      const { outcome } = command;
      return E.right([
        outcome.ok
          ? { type: 'ChatMessageSent', data: { bot_id, message_id: command.request_id, message: request.message, at: command.now } }
          : { type: 'ChatMessageFailed', data: { bot_id, request_id: command.request_id, reason: outcome.reason, message: outcome.message, at: command.now } },
      ]);
    }
    case 'AcknowledgeLeave':
      return bot.control.leaveAcknowledged ? E.right([]) : E.right([{ type: 'BotLeaveAcknowledged', data: { bot_id, at: command.now } }]);
  }
};

export const evolveControl = (control: ControlState, event: BotEvent): ControlState => {
  switch (event.type) {
    case 'ChatMessageRequested':
      return { ...control, chat: { ...control.chat, [event.data.request_id]: { message: event.data.message, answered: false } } };
    case 'ChatMessageSent':
    case 'ChatMessageFailed': {
      const id = event.type === 'ChatMessageSent' ? event.data.message_id : event.data.request_id;
      const request = control.chat[id];
      return request ? { ...control, chat: { ...control.chat, [id]: { ...request, answered: true } } } : control;
    }
    case 'BotLeaveAcknowledged':
      return { ...control, leaveAcknowledged: true };
    default:
      return control;
  }
};

/**
 * What the bot's next poll gets: the leave while it stands (asked, or the bot has ended: a bot process the
 * service already ended must go) and is not acknowledged, and every chat request without an outcome while
 * the bot runs.
 */
export const pendingRequestsOf = (bot: ControlledBot): readonly PendingControlRequest[] => {
  const ended = isTerminal(bot.status);
  const leave: PendingControlRequest[] = (bot.leaveRequested || ended) && !bot.control.leaveAcknowledged ? [{ id: STANDING_LEAVE_ID, kind: 'leave' }] : [];
  if (ended) return leave;
  const chats = Object.entries(bot.control.chat)
    .filter(([, request]) => !request.answered)
    .map(([id, request]): PendingControlRequest => ({ id, kind: 'chat', message: request.message }));
  return [...leave, ...chats];
};
