/**
 * Sends chat messages through the page, one at a time, and confirms each one: the message must show
 * up in the chat panel as the bot's own. `chat-disabled` -> chat_disabled; a `chat-error` or no
 * confirmation in time -> failed. Whether the bot may chat at all (in the call) is the caller's check.
 */
import type { ControlResult } from '../contract';
import type { MeetingPage } from './meeting-page';

export type ChatOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'chat_disabled' | 'failed'; readonly message: string };

export const withId = (id: string, outcome: ChatOutcome | { ok: false; reason: 'not_in_call'; message: string }): ControlResult =>
  ({ id, ...outcome }) as ControlResult;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ChatSender {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly meeting: MeetingPage,
    private readonly botName: string,
    private readonly confirmMs: number,
  ) {}

  /** Queues `text`; `selfId` is read when its turn comes. */
  send(text: string, selfId: () => string | null): Promise<ChatOutcome> {
    const attempt = () => this.attempt(text, selfId());
    const next = this.queue.then(attempt, attempt);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async attempt(text: string, selfId: string | null): Promise<ChatOutcome> {
    if ((await this.meeting.snapshot(Number.MAX_SAFE_INTEGER)).chatDisabled) {
      return { ok: false, reason: 'chat_disabled', message: 'Chat is disabled in this meeting.' };
    }
    const before = await this.meeting.countOwnMessages(selfId, this.botName, text);
    await this.meeting.postChat(text);
    const deadline = Date.now() + this.confirmMs;
    while (Date.now() < deadline) {
      if ((await this.meeting.countOwnMessages(selfId, this.botName, text)) > before) return { ok: true };
      const error = await this.meeting.chatError();
      if (error) {
        const disabled = (await this.meeting.snapshot(Number.MAX_SAFE_INTEGER)).chatDisabled;
        return { ok: false, reason: disabled ? 'chat_disabled' : 'failed', message: error };
      }
      await sleep(150);
    }
    return { ok: false, reason: 'failed', message: 'The message did not appear in the chat.' };
  }
}
