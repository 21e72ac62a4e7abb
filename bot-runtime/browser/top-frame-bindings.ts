/**
 * The bot's functions the meeting page may call (the recorder's chunks, the streaming tap, the page
 * watcher's wake-up), answered only for the page's own top frame: its main world (where the bot's scripts
 * run, beside the platform's own) and the bot's isolated worlds there. A call from any other frame (an
 * iframe of another origin in the same process; out-of-process frames never get the function) is refused
 * and never reaches the bot.
 *
 * Puppeteer's `exposeFunction` cannot tell who called (its binding reaches every frame, cross-origin
 * iframes included), so the bot keeps its own CDP session: `Runtime.addBinding` on the page's target, and
 * the frame of each execution context from `Runtime.executionContextCreated`, to judge each call by the
 * context it came from.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';

/** What the bot's parts need: a function the page's top frame can call, awaited as a promise there. */
export interface PageBindings {
  expose(name: string, fn: (...args: never[]) => unknown): Promise<void>;
}

const RAW_PREFIX = '__botRaw_';

/** Installs `window[name]` in a document where the raw binding exists; the answer comes back through `.deliver`. */
const wrapperSource = (name: string): string => `(() => {
  const raw = globalThis[${JSON.stringify(RAW_PREFIX + name)}];
  if (typeof raw !== 'function' || typeof globalThis[${JSON.stringify(name)}] === 'function') return;
  const pending = new Map();
  let next = 0;
  const call = (...args) => new Promise((resolve, reject) => {
    const seq = ++next;
    pending.set(seq, { resolve, reject });
    raw(JSON.stringify({ seq, args }));
  });
  Object.defineProperty(call, 'deliver', { value: (seq, ok, value) => {
    const waiting = pending.get(seq);
    if (!waiting) return;
    pending.delete(seq);
    if (ok) waiting.resolve(value); else waiting.reject(new Error(value));
  } });
  Object.defineProperty(globalThis, ${JSON.stringify(name)}, { value: call, configurable: true });
})();`;

interface ContextCreated {
  readonly context: { readonly id: number; readonly auxData?: { readonly frameId?: string } };
}

interface BindingCalled {
  readonly name: string;
  readonly payload: string;
  readonly executionContextId: number;
}

export class TopFrameBindings implements PageBindings {
  /** execution context id -> the frame it belongs to */
  private readonly contexts = new Map<number, string>();
  private readonly functions = new Map<string, (...args: never[]) => unknown>();
  private refusals = 0;

  private constructor(
    private readonly page: Page,
    private readonly session: CDPSession,
    private readonly topFrameId: string,
    private readonly log: BotLog,
  ) {}

  static async open(page: Page, log: BotLog): Promise<TopFrameBindings> {
    const session = await page.createCDPSession();
    const { frameTree } = await session.send('Page.getFrameTree');
    const bindings = new TopFrameBindings(page, session, frameTree.frame.id, log);
    session.on('Runtime.executionContextCreated', (e: ContextCreated) => {
      if (e.context.auxData?.frameId) bindings.contexts.set(e.context.id, e.context.auxData.frameId);
    });
    session.on('Runtime.executionContextDestroyed', (e: { executionContextId: number }) => bindings.contexts.delete(e.executionContextId));
    session.on('Runtime.executionContextsCleared', () => bindings.contexts.clear());
    session.on('Runtime.bindingCalled', (e: BindingCalled) => void bindings.onCall(e));
    await session.send('Runtime.enable');
    return bindings;
  }

  /** From now on, and in every document the page loads. */
  async expose(name: string, fn: (...args: never[]) => unknown): Promise<void> {
    this.functions.set(name, fn);
    await this.session.send('Runtime.addBinding', { name: RAW_PREFIX + name });
    const source = wrapperSource(name);
    await this.page.evaluateOnNewDocument(source);
    await this.page.evaluate(source).catch(() => undefined); // the document already there, if any
  }

  private async onCall(call: BindingCalled): Promise<void> {
    if (!call.name.startsWith(RAW_PREFIX)) return;
    const name = call.name.slice(RAW_PREFIX.length);
    const fn = this.functions.get(name);
    let seq: number;
    let args: unknown[];
    try {
      ({ seq, args } = JSON.parse(call.payload) as { seq: number; args: unknown[] });
    } catch {
      return;
    }
    if (!fn || this.contexts.get(call.executionContextId) !== this.topFrameId || !Array.isArray(args)) {
      if (this.refusals++ === 0) this.log.warn(`a frame other than the meeting page called ${name}: refused (and any further such call)`);
      return this.answer(call.executionContextId, name, seq, false, 'refused');
    }
    try {
      await this.answer(call.executionContextId, name, seq, true, await (fn as (...a: unknown[]) => unknown)(...args));
    } catch (err) {
      await this.answer(call.executionContextId, name, seq, false, (err as Error).message);
    }
  }

  private async answer(contextId: number, name: string, seq: number, ok: boolean, value: unknown): Promise<void> {
    await this.session
      .send('Runtime.callFunctionOn', {
        functionDeclaration: `(seq, ok, value) => globalThis[${JSON.stringify(name)}]?.deliver?.(seq, ok, value)`,
        executionContextId: contextId,
        arguments: [{ value: seq }, { value: ok }, { value: value ?? null }],
      })
      .catch(() => undefined); // the document went away meanwhile
  }
}
