/**
 * Sends chat messages through the page driver, one at a time, and confirms each one: the message must
 * show up in the chat as the bot's own; one that does not is posted again. Chat disabled ->
 * chat_disabled; a refusal, or no confirmation after the last post -> failed. A message longer than
 * the platform takes at once goes in parts, in order, each confirmed. Whether the bot may chat at all (in the call) is the caller's check.
 */
import type { ControlResult } from '../../contract/bot-contract';
import type { ChatControls } from '../drivers/page-driver';

export type ChatOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'chat_disabled' | 'failed'; readonly message: string };

export const withId = (id: string, outcome: ChatOutcome | { ok: false; reason: 'not_in_call'; message: string }): ControlResult =>
  ({ id, ...outcome }) as ControlResult;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** how often one part is posted while the chat does not show it */
export const POSTS_PER_PART = 3;

/** `text` cut into parts of at most `max` characters (code points, so no character is split). */
export const chatParts = (text: string, max: number): string[] => {
  const chars = Array.from(text);
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += max) parts.push(chars.slice(i, i + max).join(''));
  return parts.length ? parts : [text];
};

export class ChatSender {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly chat: ChatControls,
    private readonly botName: string,
    private readonly confirmMs: number,
  ) {}

  /** Queues `text`; `selfId` is read when its turn comes. */
  send(text: string, selfId: () => string | null): Promise<ChatOutcome> {
    const attempt = async (): Promise<ChatOutcome> => {
      for (const part of chatParts(text, this.chat.maxLength)) {
        const outcome = await this.attempt(part, selfId());
        if (!outcome.ok) return outcome;
      }
      return { ok: true };
    };
    const next = this.queue.then(attempt, attempt);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Posts `text` and waits for it to show as the bot's own. A post the chat never shows (the text typed
   * into a composer the page then replaced, a Send click that landed elsewhere: nothing says so) is
   * posted again, up to POSTS_PER_PART times, each time only if the chat, read just before, still
   * lacks it.
   */
  private async attempt(text: string, selfId: string | null): Promise<ChatOutcome> {
    if (await this.chat.disabled()) return { ok: false, reason: 'chat_disabled', message: 'Chat is disabled in this meeting.' };
    const before = await this.chat.countOwn(selfId, this.botName, text);
    for (let post = 1; post <= POSTS_PER_PART; post++) {
      if (post > 1 && (await this.chat.disabled())) return { ok: false, reason: 'chat_disabled', message: 'Chat is disabled in this meeting.' };
      await this.chat.post(text);
      const deadline = Date.now() + this.confirmMs;
      while (Date.now() < deadline) {
        if ((await this.chat.countOwn(selfId, this.botName, text)) > before) return { ok: true };
        const error = await this.chat.error();
        if (error) return { ok: false, reason: (await this.chat.disabled()) ? 'chat_disabled' : 'failed', message: error };
        await sleep(150);
      }
      if ((await this.chat.countOwn(selfId, this.botName, text)) > before) return { ok: true };
    }
    return { ok: false, reason: 'failed', message: `The message did not appear in the chat (posted ${POSTS_PER_PART} times).` };
  }
}
