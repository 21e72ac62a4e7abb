/**
 * What the bot keeps of a page (screenshots, the diagnostic of a page its driver does not know): only the
 * meeting platform's own pages, each within a size cap. A meeting that sends the bot to a stranger's page
 * leaves no picture and no HTML of it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sandboxFamily } from '../../bot-runtime/drivers/sandbox/family';
import { cappedHtml, DIAGNOSTIC_EXPLANATION, DIAGNOSTIC_HTML, DIAGNOSTIC_SCREENSHOT, isPlatformPage } from '../../bot-runtime/run/diagnostics';
import { makeCertificate } from '../../sandbox/certificate';
import { endBots, startBot, type StartedBot } from './support';

describe("the bot keeps pictures and HTML of the platform's own pages only", function () {
  this.timeout(120_000);

  it("knows the platform's pages by their host", () => {
    assert.equal(isPlatformPage('https://mt.localhost:8443/abc-defg-hij', sandboxFamily), true);
    assert.equal(isPlatformPage('https://MT.localhost./x', sandboxFamily), true);
    assert.equal(isPlatformPage('https://127.0.0.1:8443/elsewhere', sandboxFamily), false);
    assert.equal(isPlatformPage('https://accounts.example.com/login', sandboxFamily), false);
    assert.equal(isPlatformPage('http://mt.localhost/abc-defg-hij', sandboxFamily), false);
    assert.equal(isPlatformPage('about:blank', sandboxFamily), false);
  });

  it('cuts the diagnostic HTML at its cap, on a whole character, saying so', () => {
    assert.equal(cappedHtml('<p>short</p>', 100).toString(), '<p>short</p>');
    const cut = cappedHtml(`<p>${'é'.repeat(500)}</p>`, 200);
    assert.ok(cut.length <= 200, `${cut.length} bytes`);
    const text = cut.toString('utf8');
    assert.ok(!text.includes('\ufffd'), 'no broken character');
    assert.match(text, /^<p>é+\n<!-- cut: 1007 bytes, the first 200 kept -->\n$/);
  });

  describe('in a real Chromium', () => {
    let server: https.Server;
    let port: number;
    const running: StartedBot[] = [];

    before(async () => {
      const cert = await makeCertificate();
      server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
        if (req.url === '/abc-defg-hij') return res.writeHead(302, { location: `https://127.0.0.1:${port}/elsewhere` }).end();
        if (req.url === '/elsewhere') return res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Someone’s private page</h1>');
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Nothing a driver knows</h1>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(async () => {
      await endBots(running);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const unrecognised = async (meetingPath: string) => {
      const bot = startBot(`https://mt.localhost:${port}${meetingPath}`, 'mt', {}, { options: { unrecognisedPageSeconds: 3, screenshotSeconds: 1 } });
      running.push(bot);
      const end = await bot.done;
      assert.equal(`${end.outcome} ${end.error_code}`, 'failed CANNOT_JOIN_MEETING', end.error_message);
      return { bot, end, keys: bot.reporter.artifactKeys() };
    };

    it("a page on the platform's host that the driver does not know: screenshots and a diagnostic", async () => {
      const { keys } = await unrecognised('/xyz-abcd-efg');
      assert.ok(keys.includes(DIAGNOSTIC_SCREENSHOT) && keys.includes(DIAGNOSTIC_HTML), keys.join(' '));
      assert.ok(keys.some((k) => k.startsWith('screenshots/')), keys.join(' '));
    });

    it("a meeting that sends the bot to another host: no screenshot and no HTML of that page, only the driver's explanation without the page's title", async () => {
      const { bot, end, keys } = await unrecognised('/abc-defg-hij');
      assert.match(end.error_message, /recognised nothing on the meeting page \(127\.0\.0\.1\)/);
      assert.deepEqual(keys.filter((k) => k.startsWith('screenshots/') || k.startsWith('diagnostics/')), [DIAGNOSTIC_EXPLANATION]);
      assert.equal(JSON.parse(readFileSync(path.join(bot.out, DIAGNOSTIC_EXPLANATION), 'utf8')).title, '');
      assert.match(bot.log.text(), new RegExp(`no screenshot or HTML kept: the page is not one of the platform's \\(127\\.0\\.0\\.1:${port}\\)`));
    });
  });
});
