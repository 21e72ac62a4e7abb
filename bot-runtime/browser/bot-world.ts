/**
 * The bot's own JavaScript world in the meeting page: an isolated world (the DevTools protocol's
 * `worldName`, as extensions' content scripts have) of the page's top frame, where the bot's scripts run
 * (recorder, page watcher, streaming tap) and where its functions (the recorder's chunks, the streaming
 * tap, the page watcher's wake-up) can be called. The page shares the DOM with it but none of its
 * JavaScript: no global, binding or patched prototype of the bot's is visible to the page's scripts,
 * and nothing they patch reaches the bot's code (docs/decisions.md, "Issue 22: the browser a page sees").
 *
 * The functions are DevTools bindings (`Runtime.addBinding`) given to this world only
 * (`executionContextName`), answered only when called from the top frame's world: the same scripts run
 * in child frames' worlds, which would otherwise be heard too. Puppeteer's `exposeFunction` would put
 * them in the page's own world, in every frame.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';

/** What the bot's parts need of their world. */
export interface PageWorld {
  /** a function the world's scripts can call (awaited as a promise there), in every document from now on */
  expose(name: string, fn: (...args: never[]) => unknown): Promise<void>;
  /** a script run in the world of every document from now on, and in the current one */
  addScript(source: string): Promise<void>;
  /** an expression evaluated in the top frame's world (awaited; the value returned as JSON) */
  evaluate<T>(expression: string): Promise<T>;
}

/** The world's name: never seen by the page (only the DevTools protocol names worlds). */
export const BOT_WORLD = 'meeting-bot';

const RAW_PREFIX = '__botRaw_';

/** Installs `globalThis[name]` in a world where the raw binding exists; the answer comes back through `.deliver`. */
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
  readonly context: { readonly id: number; readonly name: string; readonly auxData?: { readonly frameId?: string; readonly isDefault?: boolean } };
}

interface BindingCalled {
  readonly name: string;
  readonly payload: string;
  readonly executionContextId: number;
}

interface EvaluateReply {
  readonly result: { readonly value?: unknown };
  readonly exceptionDetails?: { readonly text: string; readonly exception?: { readonly description?: string } };
}

const WORLD_WAIT_MS = 10_000;

export class BotWorld implements PageWorld {
  /** execution context id -> the frame of the bot's world it belongs to */
  private readonly contexts = new Map<number, string>();
  private readonly functions = new Map<string, (...args: never[]) => unknown>();
  /** the top frame's world, once its document has one */
  private topContext: number | null = null;
  private topContextWaiters: (() => void)[] = [];
  private refusals = 0;

  private constructor(
    private readonly session: CDPSession,
    private readonly topFrameId: string,
    private readonly log: BotLog,
  ) {}

  static async open(page: Page, log: BotLog): Promise<BotWorld> {
    const session = await page.createCDPSession();
    const { frameTree } = await session.send('Page.getFrameTree');
    const world = new BotWorld(session, frameTree.frame.id, log);
    session.on('Runtime.executionContextCreated', (e: ContextCreated) => world.onContext(e));
    session.on('Runtime.executionContextDestroyed', (e: { executionContextId: number }) => world.forget(e.executionContextId));
    session.on('Runtime.executionContextsCleared', () => world.forget(null));
    session.on('Runtime.bindingCalled', (e: BindingCalled) => void world.onCall(e));
    // the page agent of this session runs the world's scripts on new documents only while enabled
    await session.send('Page.enable');
    await session.send('Runtime.enable');
    // the current document's world, before any script asks for it
    await session.send('Page.createIsolatedWorld', { frameId: world.topFrameId, worldName: BOT_WORLD });
    return world;
  }

  async expose(name: string, fn: (...args: never[]) => unknown): Promise<void> {
    this.functions.set(name, fn);
    await this.session.send('Runtime.addBinding', { name: RAW_PREFIX + name, executionContextName: BOT_WORLD });
    await this.addScript(wrapperSource(name));
  }

  async addScript(source: string): Promise<void> {
    await this.session.send('Page.addScriptToEvaluateOnNewDocument', { source, worldName: BOT_WORLD, runImmediately: true });
  }

  async evaluate<T>(expression: string): Promise<T> {
    const contextId = await this.currentContext();
    const reply = (await this.session.send('Runtime.evaluate', {
      expression,
      contextId,
      awaitPromise: true,
      returnByValue: true,
      // as a person's click would: tab capture and audio playback may need it
      userGesture: true,
    })) as EvaluateReply;
    if (reply.exceptionDetails) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as T;
  }

  private onContext(e: ContextCreated): void {
    const frameId = e.context.auxData?.frameId;
    if (e.context.name !== BOT_WORLD || !frameId) return;
    this.contexts.set(e.context.id, frameId);
    if (frameId !== this.topFrameId) return;
    this.topContext = e.context.id;
    for (const wake of this.topContextWaiters.splice(0)) wake();
  }

  private forget(contextId: number | null): void {
    if (contextId === null) this.contexts.clear();
    else this.contexts.delete(contextId);
    if (contextId === null || contextId === this.topContext) this.topContext = null;
  }

  /** The top frame's world; while a navigation replaces the document, the new one's (bounded). */
  private async currentContext(): Promise<number> {
    if (this.topContext !== null) return this.topContext;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the page has no document to run in')), WORLD_WAIT_MS);
      this.topContextWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.topContext!;
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
