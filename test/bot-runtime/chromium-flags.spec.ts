/** The switches of a bot's Chromium (browser/chromium-flags.ts), and what they leave running: one renderer for the meeting. */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { chromiumFlags, DISABLED_FEATURES, mergeDisabledFeatures } from '../../bot-runtime/browser/chromium-flags';
import { browserCommand, launchBrowser } from '../../bot-runtime/browser/launch-browser';
import { eventually } from '../support/eventually';
import { descendantsOf, factsOf } from '../support/processes';

describe("a bot's Chromium switches", () => {
  it("one --disable-features (Chromium reads only the last): the features a bot does not need, never puppeteer's list", () => {
    const { args } = browserCommand('/usr/bin/chromium', ['--disable-features=Extra'], '/tmp/profile', null);
    const lists = args.filter((a) => a.startsWith('--disable-features='));
    assert.equal(lists.length, 1, lists.join(' '));
    const features = lists[0]!.slice('--disable-features='.length).split(',');
    for (const f of ['WebGPU', 'Extra', ...DISABLED_FEATURES]) assert.ok(features.includes(f), `${f} in ${features}`);
    for (const f of ['Translate', 'MediaRouter', 'AcceptCHFrame']) assert.ok(!features.includes(f), `a person's Chromium has ${f}`);
    assert.deepEqual(mergeDisabledFeatures(['--a', '--disable-features=X,Y', '--disable-features=Y,Z']), ['--a', `--disable-features=${DISABLED_FEATURES.join(',')},X,Y,Z`]);
    assert.equal(args[args.length - 1], 'about:blank', 'the first tab opens blank');
  });

  it('headful and headless differ only by the mode\'s own switches (the same bot otherwise)', () => {
    const headful = chromiumFlags([], '/tmp/profile', 'headful', () => 'Chromium 156.0.1.2');
    const headless = chromiumFlags([], '/tmp/profile', 'headless', () => 'Chromium 156.0.1.2');
    const onlyIn = (a: string[], b: string[]) => a.filter((x) => !b.includes(x)).map((x) => x.split('=')[0]);
    assert.deepEqual(onlyIn(headful, headless), ['--window-size']);
    assert.deepEqual(onlyIn(headless, headful).sort(), ['--headless', '--screen-info', '--use-angle', '--use-gl', '--user-agent', '--window-size']);
  });

  describe('in a real Chromium', function () {
    this.timeout(60_000);
    let browser: Browser;
    let server: http.Server;
    before(async () => {
      server = http.createServer((_req, res) => res.end('<title>meeting</title><p>in the call</p>'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      server?.close();
    });

    it('the meeting page in the first tab is its only renderer: no address-bar popups preloaded, no spare renderer', async () => {
      const [tab] = await browser.pages();
      await tab!.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
      const renderers = () => descendantsOf(browser.process()!.pid!).filter((pid) => factsOf(pid)?.commandLine.includes(' --type=renderer '));
      // a spare would be started right after the navigation: wait until the browser is idle (one target, the page)
      await eventually(async () => (await browser.targets()).filter((t) => t.type() !== 'browser').map((t) => t.type()), (types) => types.length === 1 && types[0] === 'page');
      assert.deepEqual((await browser.targets()).filter((t) => t.type() !== 'browser').map((t) => t.url()), [tab!.url()], 'no preloaded WebUI pages');
      assert.equal(renderers().length, 1, `renderers: ${renderers().length}`);
    });
  });
});
