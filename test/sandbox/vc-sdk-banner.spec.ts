/** The vc notice banner on a person's page in a real Chromium: the SDK apps that joined the call, by name. */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { Browser } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { signJwt } from '../../sandbox/vc-sdk/jwt';
import { browserTrustingSandbox } from './sandbox-browser';

const hook = (id: string) => `[data-testid="${id}"]`;

/** The Meeting SDK's join as its page would post it (sandbox/CONTRACT.md), from node. */
const sdkJoin = (sandbox: RunningSandbox, meetingId: string, body: Record<string, unknown>): Promise<number> =>
  new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const req = request(
      `https://vc.localhost:${sandbox.port}/api/meetings/${meetingId}/sdk-join`,
      { method: 'POST', ca: sandbox.caPem, lookup: (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]), headers: { 'content-type': 'application/json', 'content-length': payload.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

describe('sandbox vc: the notice banner names the apps in the call (Chromium)', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  let browser: Browser;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    browser = await browserTrustingSandbox(sandbox);
  });
  after(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  it('a person in the call sees no banner, then “<app> has access to the content of this meeting” once an SDK app joined', async () => {
    const app = await sandbox.client.createVcApp({ name: 'Acme Notetaker' });
    const meeting = await sandbox.client.createMeeting({ platform: 'vc', lobby: false });
    const page = await browser.newPage();
    await page.goto(meeting.url);
    await page.type(hook('name-input'), 'Alice');
    await page.click(hook('join-button'));
    await page.waitForSelector(hook('call-view'));
    assert.equal(await page.$eval(hook('app-notice'), (e) => (e as HTMLElement).style.display), 'none');
    const now = Math.floor(Date.now() / 1000);
    const signature = signJwt({ appKey: app.sdk_key, sdkKey: app.sdk_key, mn: meeting.meeting_id, role: 0, iat: now - 30, exp: now + 1770, tokenExp: now + 1770 }, app.sdk_secret);
    assert.equal(await sdkJoin(sandbox, meeting.meeting_id, { signature, meetingNumber: meeting.meeting_id, userName: 'Notetaker', passWord: '' }), 200);
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-apps') === 'Acme Notetaker', {}, hook('app-notice'));
    assert.equal(await page.$eval(hook('app-notice'), (e) => e.textContent), 'Acme Notetaker has access to the content of this meeting');
    await page.close();
  });
});
