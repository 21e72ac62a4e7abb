/** A Chromium that reaches a sandbox's replicas under the real host names, the way a bot with SANDBOX_REPLICAS does. */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';
import { replicaRouting } from '../../bot-runtime/browser/replica-routing';
import { pinArgs } from '../../bot-runtime/browser/sandbox-trust';
import { replicaHostNames } from '../../sandbox/replicas';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';

/** Host-resolver rules to the sandbox and its certificate pinned; audio not muted. */
export const launchReplicaBrowser = async (sandbox: RunningSandbox): Promise<Browser> => {
  const routing = (await replicaRouting(replicaHostNames(), { host: '127.0.0.1', port: sandbox.port }))!;
  return launchBrowser({ args: [...routing.args, ...pinArgs([routing.pin])] });
};

/** Pages in their own browser contexts (own cookies, own participant), closed by `closeAll`. */
export class ReplicaPages {
  private readonly contexts: BrowserContext[] = [];

  constructor(private readonly browser: () => Browser) {}

  /** A fresh page; with `url`, loaded (HTTP `status` expected, 200 unless said), after `prepare` (e.g. scripts for every document). */
  async open(url?: string, options: { status?: number; prepare?: (page: Page) => Promise<unknown> } = {}): Promise<Page> {
    const context = await this.browser().createBrowserContext();
    this.contexts.push(context);
    const page = await context.newPage();
    await options.prepare?.(page);
    if (url !== undefined) {
      const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
      assert.equal(response?.status(), options.status ?? 200, `GET ${url}`);
    }
    return page;
  }

  async closeAll(): Promise<void> {
    for (const c of this.contexts.splice(0)) await c.close().catch(() => undefined);
  }
}

/**
 * The frame of a replica's page suite: one sandbox and replica browser for the spec file, every test's
 * pages closed after it, and meetings of the replica.
 */
export const replicaPageSuite = (flavour: Pick<CreateMeetingRequest, 'platform' | 'replica'>) => {
  let sandbox: RunningSandbox;
  let browser: Browser;
  const pages = new ReplicaPages(() => browser);
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    browser = await launchReplicaBrowser(sandbox);
  });
  after(async () => {
    await browser?.close();
    await sandbox?.stop();
  });
  afterEach(() => pages.closeAll());
  return {
    get sandbox(): RunningSandbox {
      return sandbox;
    },
    pages,
    meeting: (options: Partial<CreateMeetingRequest> = {}) => sandbox.client.createMeeting({ ...flavour, ...options }),
  };
};
