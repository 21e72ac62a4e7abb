/**
 * The service's control requests, answered while the run goes on: a leave only sets the end cause
 * (the run loop does the leaving); a chat message is posted through the page, only in the call.
 */
import type { BotLog } from '../bot-log';
import type { ControlRequest, ControlResult } from '../../contract/bot-contract';
import type { EndCause } from '../end-codes';
import { withId, type ChatSender } from '../meeting/chat-sender';

export interface ControlTarget {
  readonly log: BotLog;
  readonly requestEnd: (cause: EndCause) => void;
  readonly sendChat: (text: string) => Promise<ControlResult>;
}

export const answerControlRequest = async (request: ControlRequest, run: ControlTarget): Promise<ControlResult> => {
  run.log.info(`control request ${request.id}: ${request.kind}`);
  if (request.kind === 'leave') {
    run.requestEnd({ kind: 'leave_requested' });
    return { id: request.id, ok: true };
  }
  return { ...(await run.sendChat(request.message)), id: request.id };
};

export interface ChatConditions {
  /** null until the meeting tab exists */
  readonly chat: ChatSender | null;
  readonly inCall: boolean;
  /** asked again after a failed send: a page going away under it means the bot is leaving */
  readonly ending: () => boolean;
  /** read when the message's turn comes: the page may have shown the bot's id by then */
  readonly selfId: () => string | null;
}

/** Posts a chat message and waits until the chat panel shows it (one message at a time). */
export const sendChatInCall = async (text: string, c: ChatConditions): Promise<ControlResult> => {
  const notInCall = { ok: false, reason: 'not_in_call', message: 'The bot is not in the call.' } as const;
  if (!c.inCall || c.ending() || !c.chat) return withId('', notInCall);
  try {
    return withId('', await c.chat.send(text, c.selfId));
  } catch (err) {
    return withId('', c.ending() ? notInCall : { ok: false, reason: 'failed', message: (err as Error).message });
  }
};
