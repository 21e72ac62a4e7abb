/**
 * What a meeting page can read of the bot's browser (issue 22): the sandbox's `/fingerprint` page runs
 * the checks a platform's bot detection can make (sandbox/fingerprint/probe.ts) and reports them to the
 * control API. One Chromium launched as a bot launches it (its switches, display, sound server, the
 * sandbox certificate pinned, the replica hosts routed), one tab per platform flavour prepared as a bot
 * prepares its meeting tab (the driver family's, the bot's world with recorder and page watcher), read
 * once by the driver and clicked by the driver's own click: nothing trips, on the three sandbox
 * flavours and the Meet, Teams and Zoom replicas.
 *
 * One tell is left, pinned here: a bot that brings its own microphone or camera answers the page's
 * `getUserMedia` through a wrapper in the page's world (docs/decisions.md).
 *
 * The checks can fail: a headless Chromium trips the window (no browser around the page), WebGL (Mesa
 * through EGL names itself OpenGL ES) and the client hints (its user agent switch empties the high-entropy
 * ones), and a tab with the old bot's habits (globals and patched
 * natives in the page's world, reads from the page's world, a script's click, a console that previews
 * what is logged) trips every check that looks for them.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import { openBotBrowser, type BotBrowser } from '../../bot-runtime/browser/bot-browser';
import type { BrowserMode } from '../../bot-runtime/browser/fingerprint/browser-mode';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';
import type { DriverFamily } from '../../bot-runtime/drivers/page-driver';
import { familyForUrl, replicaHosts } from '../../bot-runtime/drivers/families';
import { googleMeetFamily } from '../../bot-runtime/drivers/google-meet/family';
import { microsoftTeamsFamily } from '../../bot-runtime/drivers/microsoft-teams/family';
import { BotMedia } from '../../bot-runtime/media/bot-media';
import { clickElement, findFirst } from '../../bot-runtime/drivers/page-actions';
import { browserArgsFor } from '../../bot-runtime/run/browser-args';
import { MeetingTab } from '../../bot-runtime/run/meeting-tab';
import { clickOn, hasAnyText, pageFacts as signInPageFacts } from '../../bot-runtime/sign-in/page-facts';
import { FolderUploader } from '../../bot-runtime/uploaders/folder-uploader';
import { FINGERPRINT_CHECKS } from '../../sandbox/fingerprint/probe';
import type { FingerprintReport } from '../../sandbox/fingerprint/reports';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { MemoryReporter, tmpDir } from './support';

const JOIN = [{ selector: '[data-testid=fingerprint-join]' }];
/** A 1×1 PNG: the bot's picture. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const OLD_HABITS = `window.__botRecorder = {};
AudioNode.prototype.connect = new Proxy(AudioNode.prototype.connect, { apply: (target, self, args) => Reflect.apply(target, self, args) });
console.debug = ((debug) => function () {
  for (const a of arguments) if (a && typeof a === 'object') { for (const k of Object.keys(a)) void a[k]; void a.stack; }
  return debug.apply(console, arguments);
})(console.debug);`;

describe("what a meeting page can read of the bot's browser (one Chromium, every platform flavour)", function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let work: string;
  const log = new BotLog(null);

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    work = tmpDir('bot-fingerprint-');
  });
  after(async () => {
    await sandbox?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** The Chromium switches a bot gets for a sandbox meeting with SANDBOX_REPLICAS: both pins, the replica hosts routed. */
  const botArgs = () =>
    browserArgsFor({ platform: 'mt', url: `https://mt.localhost:${sandbox.port}/fingerprint`, sandbox: true }, true, { address: { host: '127.0.0.1', port: sandbox.port }, hosts: replicaHosts() }, log);

  const reportsOf = async (host: string) =>
    (await sandbox.client.request<{ reports: FingerprintReport[] }>('GET', `/control/fingerprints?host=${encodeURIComponent(host)}`)).reports;

  /** The next report of `host` (`final`: the one after the click), waited for without a fixed sleep. */
  const nextReport = async (host: string, final: boolean, after: number): Promise<FingerprintReport> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = (await reportsOf(host)).filter((r) => r.final === final)[after];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${final ? 'final ' : ''}report from ${host}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  /** A tab as the bot prepares it for a meeting of `family` (the driver family's, the bot's world with recorder and page watcher). */
  const preparedTab = async (browser: BotBrowser, family: DriverFamily, media: BotMedia | null, oldHabits = false) => {
    const page = await browser.context.newPage();
    const tab = new MeetingTab(
      page,
      family,
      { botName: 'Rec Bot', recordingMode: 'audio_only', chunkSeconds: 10, screenshotSeconds: 0, chatConfirmMs: 1000, workDir: work },
      new ArtifactStore(new FolderUploader(work), new MemoryReporter(), log),
      log,
      () => undefined,
      media,
    );
    await tab.prepare(() => undefined);
    if (oldHabits) await page.evaluateOnNewDocument(OLD_HABITS);
    return { page, tab };
  };

  /**
   * A tab as the bot prepares it, on `url`'s fingerprint page: read once by its driver, its join button
   * clicked by the driver's click. With `oldHabits`, also what the bot used to do: a global and a wrapped
   * native in the page's world before its scripts, a read from the page's world, a script's click; and a
   * console that reads what it logs, as one with the DevTools' Runtime domain enabled did before V8 stopped.
   */
  const visit = async (browser: BotBrowser, url: string, oldHabits = false, media: BotMedia | null = null): Promise<FingerprintReport> => {
    const host = new URL(url).hostname;
    const before = (await reportsOf(host)).filter((r) => r.final).length;
    const { page, tab } = await preparedTab(browser, familyForUrl(url)!, media, oldHabits);
    await page.goto(url, { waitUntil: 'load' });
    await nextReport(host, false, before);
    await tab.driver.read(0);
    if (oldHabits) await page.evaluate(() => document.querySelectorAll('button').length);
    const join = (await findFirst(page, JOIN))!;
    if (oldHabits) await join.element.evaluate((el) => (el as HTMLElement).click());
    else await clickElement(join.element);
    const report = await nextReport(host, true, before);
    await page.close();
    return report;
  };

  /**
   * The fingerprint page on a sign-in host, in the tab of a meeting of `family`, as a signed-in bot meets
   * the sign-in pages before its meeting: read as the sign-in reads a page (bot-runtime/sign-in/page-facts.ts),
   * its button clicked as the sign-in clicks "Next" or "Sign in".
   */
  const visitSigningIn = async (browser: BotBrowser, url: string, family: DriverFamily): Promise<FingerprintReport> => {
    const host = new URL(url).hostname;
    const before = (await reportsOf(host)).filter((r) => r.final).length;
    const { page } = await preparedTab(browser, family, null);
    await page.goto(url, { waitUntil: 'load' });
    await nextReport(host, false, before);
    const facts = await signInPageFacts(page, [JOIN[0]!.selector]);
    assert.deepEqual(facts?.visible, [true], 'the sign-in sees the button');
    assert.ok(hasAnyText(facts!, ['Browser check']), 'the sign-in reads the page');
    assert.equal(await clickOn(page, JOIN[0]!.selector), true);
    const report = await nextReport(host, true, before);
    await page.close();
    return report;
  };

  const tripped = (r: FingerprintReport) => Object.fromEntries(r.checks.filter((c) => !c.ok).map((c) => [c.id, c.detail]));

  const hosts = () => [
    `https://mt.localhost:${sandbox.port}`,
    `https://tm.localhost:${sandbox.port}`,
    `https://vc.localhost:${sandbox.port}`,
    'https://meet.google.com',
    'https://teams.microsoft.com',
    'https://zoom.us',
  ];

  const inMode = async (mode: BrowserMode, work: (browser: BotBrowser) => Promise<void>) => {
    const browser = await launchBrowser({ mode, args: await botArgs() });
    try {
      await work({ context: browser.defaultBrowserContext(), close: () => browser.close() });
    } finally {
      await browser.close();
    }
  };

  it('the bot (headful, its default): no check trips on any flavour', async () => {
    const browser = await openBotBrowser(undefined, await botArgs());
    try {
      for (const host of hosts()) {
        const report = await visit(browser, `${host}/fingerprint`);
        assert.deepEqual(tripped(report), {}, `${host}: ${report.tripped.join(', ')}`);
        assert.deepEqual(report.checks.map((c) => c.id).sort(), [...FINGERPRINT_CHECKS].sort(), `${host}: every check ran`);
      }
    } finally {
      await browser.close();
    }
  });

  it("the bot's sign-in on Microsoft's and Google's sign-in hosts (headful): no check trips, its reads and clicks included", async () => {
    const browser = await openBotBrowser(undefined, await botArgs());
    try {
      for (const [url, family] of [
        ['https://login.microsoftonline.com/fingerprint', microsoftTeamsFamily],
        ['https://accounts.google.com/fingerprint', googleMeetFamily],
      ] as const) {
        const report = await visitSigningIn(browser, url, family);
        assert.deepEqual(tripped(report), {}, `${url}: ${report.tripped.join(', ')}`);
        assert.deepEqual(report.checks.map((c) => c.id).sort(), [...FINGERPRINT_CHECKS].sort(), `${url}: every check ran`);
      }
    } finally {
      await browser.close();
    }
  });

  it('headless trips the window (outer size = inner size), WebGL (OpenGL ES) and the client hints (emptied by its user agent switch), and nothing else', async () => {
    await inMode('headless', async (browser) => {
      const report = await visit(browser, 'https://meet.google.com/fingerprint');
      assert.deepEqual(report.tripped.sort(), ['client-hints', 'webgl', 'window-size'], JSON.stringify(tripped(report)));
    });
  });

  it("a bot that brings its own camera (bot_image) still shows its wrapper of the page's getUserMedia: the known tell left", async () => {
    const picture = `data:image/png;base64,${PNG_1X1}`;
    const media = new BotMedia({ streaming: null, images: [picture], imageConfig: { mode: 'cycle', interval_seconds: 10 }, log });
    const browser = await openBotBrowser(undefined, await botArgs());
    try {
      const report = await visit(browser, 'https://meet.google.com/fingerprint', false, media);
      assert.deepEqual(report.tripped.sort(), ['automation-globals', 'injected-stack-frames', 'patched-natives'], JSON.stringify(tripped(report)));
    } finally {
      await browser.close();
    }
  });

  it("the old bot's habits trip the checks that look for them", async () => {
    await inMode('headful', async (browser) => {
      const report = await visit(browser, 'https://zoom.us/fingerprint', true);
      for (const id of ['automation-globals', 'patched-natives', 'injected-stack-frames', 'devtools-runtime', 'page-world-callers', 'trusted-click']) {
        assert.ok(report.tripped.includes(id), `${id} tripped: ${report.tripped.join(', ')}`);
      }
    });
  });
});
