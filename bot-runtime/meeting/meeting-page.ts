/**
 * The meeting page as the bot sees it: reads the DOM hooks of sandbox/CONTRACT.md into a snapshot
 * and performs the few actions a participant needs (type the name, join, ask for recording, chat,
 * leave). In-page code is plain JavaScript strings (see recorder/in-page.ts for why).
 */
import type { Page } from 'puppeteer-core';
import type { SeenChatMessage } from '../chat-log';
import type { SeenParticipant } from '../attendees';

export type Screen =
  | 'loading'
  | 'not_found'
  | 'prejoin'
  | 'join_error'
  | 'waiting_for_host'
  | 'lobby'
  | 'in_call'
  | 'denied'
  | 'removed'
  | 'ended'
  | 'left';

export type RecordingPermission = 'none' | 'pending' | 'granted' | 'denied';

export interface PageSnapshot {
  readonly screen: Screen;
  readonly joinError: string | null;
  /** the page's own participant id, when the page shows it */
  readonly selfId: string | null;
  readonly participants: SeenParticipant[];
  readonly activeSpeaker: string | null;
  readonly chatDisabled: boolean;
  /** chat messages after the `since` index passed to `readSnapshot` */
  readonly chat: SeenChatMessage[];
  /** vc only; null when the page has no recording-permission hook */
  readonly recordingPermission: RecordingPermission | null;
}

const tid = (id: string) => `[data-testid="${id}"]`;

/**
 * A `join-error` that is the platform refusing the bot's display name (tm guest-name rules): the
 * sandbox says "This name cannot be used: <why>". Any other join error (the join call failed, the
 * meeting ended meanwhile, …) is not a refusal of the bot.
 */
export const isNameRefusal = (joinError: string): boolean => /\bname cannot be used\b/i.test(joinError);

const snapshotSource = (since: number) => String.raw`
(() => {
  const q = (id) => document.querySelector('[data-testid="' + id + '"]');
  const all = (id) => Array.from(document.querySelectorAll('[data-testid="' + id + '"]'));
  const order = [
    ['meeting-not-found', 'not_found'], ['denied', 'denied'], ['removed', 'removed'], ['meeting-ended', 'ended'],
    ['call-view', 'in_call'], ['lobby', 'lobby'], ['waiting-for-host', 'waiting_for_host'], ['join-error', 'join_error'],
    ['name-input', 'prejoin'],
  ];
  let screen = 'loading';
  for (const [id, name] of order) if (q(id)) { screen = name; break; }
  if (screen === 'loading' && document.body && document.body.getAttribute('data-screen') === 'left') screen = 'left';
  const joinError = q('join-error');
  const me = document.querySelector('[data-testid="participant"].me');
  const selfId = (document.body && document.body.getAttribute('data-participant-id')) || (me && me.getAttribute('data-participant-id')) || null;
  const speaker = q('active-speaker');
  const rec = q('recording-permission');
  const messages = all('chat-message').slice(${since}).map((m) => ({
    sender_name: m.getAttribute('data-sender') || '',
    participant_id: m.getAttribute('data-participant-id') || null,
    text: m.textContent || '',
  }));
  return {
    screen,
    joinError: joinError ? (joinError.textContent || '').trim() : null,
    selfId,
    participants: all('participant').map((p) => ({ id: p.getAttribute('data-participant-id') || p.getAttribute('data-name') || '', name: p.getAttribute('data-name') || '' })),
    activeSpeaker: speaker ? (speaker.getAttribute('data-name') || null) : null,
    chatDisabled: !!q('chat-disabled'),
    chat: messages,
    recordingPermission: rec ? rec.getAttribute('data-state') : null,
  };
})()`;

export class MeetingPage {
  constructor(readonly page: Page) {}

  async snapshot(chatSince: number): Promise<PageSnapshot> {
    return (await this.page.evaluate(snapshotSource(chatSince))) as PageSnapshot;
  }

  async enterNameAndJoin(name: string): Promise<void> {
    const input = await this.page.waitForSelector(tid('name-input'), { timeout: 10_000 });
    await input!.click({ clickCount: 3 });
    await input!.type(name);
    await this.page.click(tid('join-button'));
  }

  async requestRecording(): Promise<void> {
    await this.page.click(tid('request-recording'));
  }

  /** Puts `text` into the chat input and clicks send (the value is set directly: long messages are not typed key by key). */
  async postChat(text: string): Promise<void> {
    await this.page.waitForSelector(tid('chat-input'), { timeout: 5000 });
    await this.page.evaluate(
      `(() => { const el = document.querySelector('${tid('chat-input')}'); el.focus(); el.value = ${JSON.stringify(text)}; el.dispatchEvent(new Event('input', { bubbles: true })); })()`,
    );
    await this.page.click(tid('chat-send'));
  }

  /** The text of `chat-error`, if the page shows one. */
  async chatError(): Promise<string | null> {
    return (await this.page.evaluate(
      `(() => { const e = document.querySelector('${tid('chat-error')}'); return e ? (e.textContent || '').trim() : null; })()`,
    )) as string | null;
  }

  /** Number of chat messages sent by `selfId` with exactly `text`. */
  async countOwnMessages(selfId: string | null, name: string, text: string): Promise<number> {
    return (await this.page.evaluate(
      `Array.from(document.querySelectorAll('${tid('chat-message')}')).filter((m) => (${JSON.stringify(selfId)} !== null ? m.getAttribute('data-participant-id') === ${JSON.stringify(selfId)} : m.getAttribute('data-sender') === ${JSON.stringify(name)}) && m.textContent === ${JSON.stringify(text)}).length`,
    )) as number;
  }

  /** Clicks leave when the call view shows it and waits (up to `timeoutMs`) for the call view to go; returns whether it clicked. */
  async leaveCall(timeoutMs = 3000): Promise<boolean> {
    const button = await this.page.$(tid('leave-button'));
    if (!button) return false;
    await button.click();
    await this.page.waitForFunction(`!document.querySelector('${tid('call-view')}')`, { timeout: timeoutMs }).catch(() => undefined);
    return true;
  }
}
