/**
 * The chat sender (meeting/chat-sender.ts) against a fake chat: a post the page silently drops (the
 * text typed into a composer the page then replaced, a Send click that landed elsewhere) is posted
 * again while the chat still lacks it, and only until it shows.
 */
import assert from 'node:assert/strict';
import type { ChatControls } from '../../bot-runtime/drivers/page-driver';
import { ChatSender, POSTS_PER_PART } from '../../bot-runtime/meeting/chat-sender';

/** A chat whose posts show according to `shows` (one entry per post, in order): at once, never, or after a delay. */
const fakeChat = (shows: ('at_once' | 'never' | { afterMs: number })[]) => {
  const shown: string[] = [];
  const posts: string[] = [];
  const chat: ChatControls = {
    maxLength: 1000,
    disabled: async () => false,
    error: async () => null,
    countOwn: async (_selfId, _botName, text) => shown.filter((t) => t === text).length,
    post: async (text) => {
      posts.push(text);
      const how = shows[posts.length - 1] ?? 'at_once';
      if (how === 'at_once') shown.push(text);
      else if (how !== 'never') setTimeout(() => shown.push(text), how.afterMs);
    },
  };
  return { chat, shown, posts };
};

describe('bot-runtime chat sender', () => {
  it('a post the chat never shows is posted again, and the message is confirmed once it shows', async () => {
    const { chat, shown, posts } = fakeChat(['never', 'at_once']);
    const outcome = await new ChatSender(chat, 'Bot', 300).send('hello from the bot', () => null);
    assert.deepEqual(outcome, { ok: true });
    assert.deepEqual(posts, ['hello from the bot', 'hello from the bot']);
    assert.deepEqual(shown, ['hello from the bot']);
  });

  it('a message the chat never shows fails after its last post', async () => {
    const { chat, posts } = fakeChat(['never', 'never', 'never', 'never']);
    const outcome = await new ChatSender(chat, 'Bot', 100).send('lost', () => null);
    assert.equal(outcome.ok, false);
    assert.equal(posts.length, POSTS_PER_PART);
  });

  it('the same text already in the chat (sent earlier) counts only when a new one shows', async () => {
    const { chat, shown, posts } = fakeChat(['at_once', 'never', 'at_once']);
    assert.deepEqual(await new ChatSender(chat, 'Bot', 200).send('again', () => null), { ok: true });
    assert.deepEqual(await new ChatSender(chat, 'Bot', 200).send('again', () => null), { ok: true });
    assert.deepEqual([posts.length, shown.length], [3, 2]);
  });
});
