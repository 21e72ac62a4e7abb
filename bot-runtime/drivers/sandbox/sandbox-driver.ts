/**
 * The driver of the sandbox's own flavours (vc, tm, mt on `*.localhost`): reads the DOM hooks of
 * sandbox/CONTRACT.md and performs the few actions a participant needs (type the name, join, ask for
 * recording, chat, leave, choose the layout). The sandbox has no microphone or camera controls.
 */
import type { Page } from 'puppeteer-core';
import { redactedHtmlExpression } from '../in-page/redacted-html';
import type { RecordingMode } from '../../../contract/bot-contract';
import type { ChatControls, PageDriver, PageExplanation, PageSnapshot } from '../page-driver';
import { PageReading } from '../page-reading';
import { sandboxReadSource, sandboxRedaction, sandboxScan, tid } from './sandbox-hooks';
import { botRealm, queryInBotRealm, waitInBotRealm } from '../bot-realm';

/** the sandbox's own limit (sandbox/meeting-state.ts MAX_CHAT_LENGTH) */
const SANDBOX_CHAT_LIMIT = 4096;

export class SandboxDriver implements PageDriver {
  readonly name = 'sandbox';
  readonly chat: ChatControls;
  private readonly reading: PageReading;

  constructor(readonly page: Page) {
    this.reading = new PageReading(page, sandboxScan);
    this.chat = {
      maxLength: SANDBOX_CHAT_LIMIT,
      disabled: async () => (await botRealm(this.page).evaluate(`!!document.querySelector(${JSON.stringify(tid('chat-disabled'))})`)) as boolean,
      post: (text) => this.postChat(text),
      error: () => this.chatError(),
      countOwn: (selfId, name, text) => this.countOwnMessages(selfId, name, text),
    };
  }

  async read(chatSince: number): Promise<PageSnapshot> {
    const { result, frame } = await this.reading.scan();
    const { screen, wall, evidence, notice } = result;
    const data = (await botRealm(frame).evaluate(sandboxReadSource(chatSince))) as Omit<PageSnapshot, 'screen' | 'wall' | 'evidence' | 'notice'>;
    return { screen, wall, evidence, notice, ...data };
  }

  explain(): Promise<PageExplanation> {
    return this.reading.explain();
  }

  async join(name: string): Promise<void> {
    const input = await waitInBotRealm(this.page, tid('name-input'), 10_000);
    await input.click({ clickCount: 3 });
    await input.type(name);
    await this.click(tid('join-button'));
  }

  async prepareCall(): Promise<void> {
    // the chat panel is always open and there are no dialogs
  }

  /** `layout-speaker` / `layout-gallery`; audio_only leaves it. */
  async setLayout(mode: RecordingMode): Promise<void> {
    if (mode === 'audio_only') return;
    await this.click(tid(mode === 'gallery_view' ? 'layout-gallery' : 'layout-speaker'));
  }

  async requestRecording(): Promise<void> {
    await this.click(tid('request-recording'));
  }

  /** Puts `text` into the chat input and clicks send (the value is set directly: long messages are not typed key by key). */
  private async postChat(text: string): Promise<void> {
    await waitInBotRealm(this.page, tid('chat-input'), 5000);
    await botRealm(this.page).evaluate(
      `(() => { const el = document.querySelector('${tid('chat-input')}'); el.focus(); el.value = ${JSON.stringify(text)}; el.dispatchEvent(new Event('input', { bubbles: true })); })()`,
    );
    await this.click(tid('chat-send'));
  }

  private async chatError(): Promise<string | null> {
    return (await botRealm(this.page).evaluate(
      `(() => { const e = document.querySelector('${tid('chat-error')}'); return e ? (e.textContent || '').trim() : null; })()`,
    )) as string | null;
  }

  private async countOwnMessages(selfId: string | null, name: string, text: string): Promise<number> {
    return (await botRealm(this.page).evaluate(
      `Array.from(document.querySelectorAll('${tid('chat-message')}')).filter((m) => (${JSON.stringify(selfId)} !== null ? m.getAttribute('data-participant-id') === ${JSON.stringify(selfId)} : m.getAttribute('data-sender') === ${JSON.stringify(name)}) && m.textContent === ${JSON.stringify(text)}).length`,
    )) as number;
  }

  /** Clicks the element with the mouse, found from the bot's world (what `page.click` does from the page's). */
  private async click(selector: string): Promise<void> {
    const element = await queryInBotRealm(this.page, selector);
    if (!element) throw new Error(`no element ${selector}`);
    await element.click();
  }

  async leaveCall(timeoutMs = 3000): Promise<boolean> {
    const button = await queryInBotRealm(this.page, tid('leave-button'));
    if (!button) return false;
    await button.click();
    await botRealm(this.page).waitForFunction(`!document.querySelector('${tid('call-view')}')`, { timeout: timeoutMs }).catch(() => undefined);
    return true;
  }

  async redactedHtml(names: readonly string[]): Promise<string> {
    return (await botRealm(this.page).evaluate(redactedHtmlExpression({ ...sandboxRedaction, names }))) as string;
  }
}
