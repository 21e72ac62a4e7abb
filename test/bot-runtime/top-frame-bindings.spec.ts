/**
 * The bot's functions in the meeting page (recorder chunks, streaming tap, wake-up) answer the page's top
 * frame only: a cross-origin iframe, in the page's process or in its own, cannot call them, neither
 * through the page-facing function nor through the raw binding underneath.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { BotLog } from '../../bot-runtime/bot-log';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';
import { TopFrameBindings } from '../../bot-runtime/browser/top-frame-bindings';

/** What a frame learns when it calls the bot: the answer, or why there was none. */
const callFrom = (frame: Frame | Page, value: number) =>
  frame.evaluate(async (v) => {
    const w = window as unknown as Record<string, unknown>;
    const viaFunction = typeof w.__botTest === 'function' ? await (w.__botTest as (x: number) => Promise<number>)(v).then(String, (e: Error) => `refused: ${e.message}`) : 'no function';
    const raw = w.__botRaw___botTest;
    if (typeof raw === 'function') (raw as (p: string) => void)(JSON.stringify({ seq: 99, args: [v + 1000] }));
    return { viaFunction, raw: typeof raw };
  }, value);

describe("the bot's page functions answer the meeting page's top frame only", function () {
  this.timeout(60_000);
  let browser: Browser;
  let servers: http.Server[] = [];
  const calls: number[] = [];

  /** One server per port: each port is an origin of its own; 127.0.0.1 and localhost are different sites. */
  const serve = async (html: (req: http.IncomingMessage) => string): Promise<number> => {
    const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html(req)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const s of servers) s.close();
    servers = [];
  });

  it('the top frame calls and gets its answer; a same-site and a cross-site iframe are refused, and nothing reaches the bot', async () => {
    const framePort = await serve(() => '<p>an iframe of another origin</p>');
    const topPort = await serve(
      () =>
        `<p>the meeting</p><iframe name="same-site" src="http://127.0.0.1:${framePort}/f"></iframe><iframe name="cross-site" src="http://localhost:${framePort}/f"></iframe>`,
    );
    const page = await browser.newPage();
    const log = new BotLog(null);
    const bindings = await TopFrameBindings.open(page, log);
    await bindings.expose('__botTest', (x: number) => (calls.push(x), x * 2));
    await page.goto(`http://127.0.0.1:${topPort}/meeting`, { waitUntil: 'load' });

    assert.deepEqual(await callFrom(page, 21), { viaFunction: '42', raw: 'function' });
    assert.deepEqual(calls, [21, 1021], 'the top frame may call, through the function or the binding underneath');

    const frames = page.frames().filter((f) => f !== page.mainFrame());
    assert.equal(frames.length, 2);
    const seen = Object.fromEntries(await Promise.all(frames.map(async (f) => [f.name(), await callFrom(f, 7)])));
    assert.deepEqual(seen, {
      // in the page's own process: the function is there, and refuses
      'same-site': { viaFunction: 'refused: refused', raw: 'function' },
      // in a process of its own (site isolation): the bot's binding does not exist there at all
      'cross-site': { viaFunction: 'no function', raw: 'undefined' },
    });
    assert.deepEqual(calls, [21, 1021], 'no call from an iframe reached the bot');
    assert.match(log.text(), /a frame other than the meeting page called __botTest: refused/);
    await page.close();
  });
});
