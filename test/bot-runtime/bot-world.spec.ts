/**
 * The bot's world in the meeting page (recorder, page watcher, streaming tap): the page's own scripts see
 * none of it, in the top frame or an iframe; the world's functions answer the top frame's world only
 * (the same scripts run in an iframe's world, whose calls are refused); the world follows navigations.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { BotLog } from '../../bot-runtime/bot-log';
import { BOT_WORLD, BotWorld } from '../../bot-runtime/browser/bot-world';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';

/** What the page's own scripts find of the bot, in a frame. */
const pageSees = (frame: Frame | Page) =>
  frame.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return [typeof w.__botTest, typeof w.__botRaw___botTest, typeof w.__botScript];
  });

/** Evaluates in the bot's world of an iframe, the way only the DevTools protocol can. */
const inFrameWorld = async (page: Page, frame: Frame, expression: string): Promise<unknown> => {
  const session = await page.createCDPSession();
  const contexts: { id: number; name: string; auxData?: { frameId?: string } }[] = [];
  session.on('Runtime.executionContextCreated', (e: { context: (typeof contexts)[number] }) => contexts.push(e.context));
  await session.send('Runtime.enable');
  const frameId = (frame as unknown as { _id: string })._id;
  const context = contexts.find((c) => c.name === BOT_WORLD && c.auxData?.frameId === frameId);
  assert.ok(context, 'the bot world exists in the iframe too (the same scripts run there)');
  const reply = (await session.send('Runtime.evaluate', { expression, contextId: context.id, awaitPromise: true, returnByValue: true })) as { result: { value?: unknown } };
  await session.detach();
  return reply.result.value;
};

describe("the bot's world in the meeting page", function () {
  this.timeout(60_000);
  let browser: Browser;
  let servers: http.Server[] = [];
  const calls: number[] = [];

  /** One server per port: each port is an origin of its own. */
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

  it("is invisible to the page's scripts; its functions answer its top frame only; it follows navigations", async () => {
    const framePort = await serve(() => '<p>an iframe</p>');
    const topPort = await serve(() => `<p>the meeting</p><iframe name="same-site" src="http://127.0.0.1:${framePort}/f"></iframe>`);
    const page = await browser.newPage();
    const log = new BotLog(null);
    const world = await BotWorld.open(page, log);
    await world.expose('__botTest', (x: number) => (calls.push(x), x * 2));
    await world.addScript('window.__botScript = 1;');
    await page.goto(`http://127.0.0.1:${topPort}/meeting`, { waitUntil: 'load' });

    assert.deepEqual(await pageSees(page), ['undefined', 'undefined', 'undefined'], "the page's own world has none of the bot's names");
    const iframe = page.frames().find((f) => f.name() === 'same-site')!;
    assert.deepEqual(await pageSees(iframe), ['undefined', 'undefined', 'undefined']);

    assert.equal(await world.evaluate('__botScript + 1'), 2, "the bot's script ran in its world");
    assert.equal(await world.evaluate('__botTest(21)'), 42, 'the top frame’s world calls and gets its answer');
    assert.equal(await inFrameWorld(page, iframe, '__botTest(7).then(String, (e) => "refused: " + e.message)'), 'refused: refused');
    assert.deepEqual(calls, [21], 'no call from the iframe reached the bot');
    assert.match(log.text(), /a frame other than the meeting page called __botTest: refused/);

    await page.goto(`http://127.0.0.1:${framePort}/next`, { waitUntil: 'load' });
    assert.equal(await world.evaluate('__botTest(__botScript + 4)'), 10, 'the next document has the world, its script and its function');
    assert.deepEqual(await pageSees(page), ['undefined', 'undefined', 'undefined']);
    await page.close();
  });
});
