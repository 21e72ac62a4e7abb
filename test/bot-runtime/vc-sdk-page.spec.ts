/**
 * The bot's Meeting SDK page against a stand-in of the npm package laid out as `@zoom/meetingsdk` ships it
 * (dist/lib/vendor/*.min.js, dist/zoom-meeting-<version>.min.js): the page the bot serves itself, the exact
 * join parameters it hands the SDK, and how its driver reads the SDK's callbacks and events. What only a
 * live platform can show is listed in docs/decisions.md (Issue 21).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { BotLog } from '../../bot-runtime/bot-log';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';
import type { VcSdkJoin } from '../../contract/bot-contract';
import { sdkErrorOutcome } from '../../bot-runtime/drivers/vc-sdk/sdk-errors';
import { VcSdkDriver, type VcJoinAnswer } from '../../bot-runtime/drivers/vc-sdk/vc-sdk-driver';
import { endVerdict } from '../../bot-runtime/end-codes';
import { VENDOR_SCRIPTS } from '../../bot-runtime/vc-sdk/host-page';
import { installedMeetingSdk, startSdkHostServer, type SdkHostServer } from '../../bot-runtime/vc-sdk/host-server';
import { signSdkJwt } from '../../src/adapters/vc-platform/sdk-signature';
import { sdkSignatureClaims } from '../../src/domain/vc-credentials/sdk-signature-claims';

/** A `ZoomMtg` that records what it is asked, and lets the test fire its events and callbacks. */
const STUB_SDK = `
window.__sdk = { lib: null, init: null, join: null, listeners: {}, vendors: window.__vendors || [] };
window.ZoomMtg = {
  preLoadWasm: function () { window.__sdk.wasm = true; },
  prepareWebSDK: function () { window.__sdk.prepared = true; },
  setZoomJSLib: function (lib, av) { window.__sdk.lib = [lib, av]; },
  init: function (a) { var copy = {}; Object.keys(a).forEach(function (k) { copy[k] = typeof a[k] === 'function' ? 'function' : a[k]; }); window.__sdk.init = copy; a.success({}); },
  join: function (a) { var copy = {}; Object.keys(a).forEach(function (k) { copy[k] = typeof a[k] === 'function' ? 'function' : a[k]; }); window.__sdk.join = copy; window.__sdk.joinCallbacks = a; },
  inMeetingServiceListener: function (e, f) { (window.__sdk.listeners[e] = window.__sdk.listeners[e] || []).push(f); },
  leaveMeeting: function (a) { a.success({}); },
  sendChat: function (a) { a.success({}); },
  mediaCapture: function (a) { a.error({}); },
  mediaCapturePermission: function (a) { window.__sdk.permissionAsked = true; a.success({}); }
};
window.__emit = function (e, d) { (window.__sdk.listeners[e] || []).forEach(function (f) { f(d); }); };
`;

const credentials: VcSdkJoin = {
  signature: 'header.claims.mac',
  sdk_key: 'app-key',
  meeting_number: '1234567890',
  passcode: 'abc.1',
  role: 0,
  obf_token: 'obf-token-1',
  zak: null,
};

describe('the bot’s Meeting SDK page (served by the bot from the npm package’s layout) and its driver', () => {
  let dist: string;
  let host: SdkHostServer;
  let browser: Browser;
  let page: Page;
  let renewals: VcJoinAnswer[];
  const driverFor = (sdk: VcSdkJoin = credentials, renewable = false) =>
    new VcSdkDriver(page, { first: { sdk, retry_seconds: 30, renewable }, renew: async () => renewals.shift()! }, host.url, { botName: 'Notetaker', recordingMode: 'audio_only' }, new BotLog());
  const sdk = () => page.evaluate('window.__sdk') as Promise<Record<string, any>>;
  const emit = (event: string, data: unknown) => page.evaluate((e, d) => (window as any).__emit(e, d), event, data as any);
  const joined = async (sdkJoin = credentials) => {
    await page.goto(host.url);
    const driver = driverFor(sdkJoin);
    await driver.join('Notetaker');
    await page.waitForFunction('window.__sdk.join !== null');
    return driver;
  };

  before(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'meetingsdk-dist-'));
    mkdirSync(path.join(dist, 'lib', 'vendor'), { recursive: true });
    for (const file of VENDOR_SCRIPTS) writeFileSync(path.join(dist, 'lib', 'vendor', file), `(window.__vendors = window.__vendors || []).push(${JSON.stringify(file)});`);
    writeFileSync(path.join(dist, 'zoom-meeting-6.2.0.min.js'), STUB_SDK);
    host = await startSdkHostServer({ kind: 'package', distDir: dist });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the page and the package’s files from loopback, isolated as the SDK needs, and nothing outside the package', async () => {
    const response = await fetch(host.url);
    assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin');
    assert.equal(response.headers.get('cross-origin-embedder-policy'), 'require-corp');
    const html = await response.text();
    assert.deepEqual([...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]), [...VENDOR_SCRIPTS.map((f) => `/sdk/lib/vendor/${f}`), '/sdk/zoom-meeting-6.2.0.min.js']);
    assert.doesNotMatch(html, /source\.zoom\.us|cdn/i, 'no CDN');
    assert.equal((await fetch(`${host.url}sdk/zoom-meeting-6.2.0.min.js`)).status, 200);
    assert.equal((await fetch(`${host.url}sdk/..%2F..%2Fetc%2Fpasswd`)).status, 404);
  });

  it('loads the vendor libraries first, points the SDK at its own assets, and joins with exactly the documented parameters', async () => {
    await joined();
    const s = await sdk();
    assert.deepEqual(s.vendors, [...VENDOR_SCRIPTS]);
    assert.ok(s.wasm && s.prepared);
    assert.deepEqual(s.lib, [`${host.url}sdk/lib`, '/av']);
    assert.deepEqual(s.init, {
      leaveUrl: 'about:blank', patchJsMedia: true, leaveOnPageUnload: true, disablePreview: true, enableWaitingRoomPreview: false, defaultView: 'speaker', success: 'function', error: 'function',
    });
    assert.deepEqual(s.join, {
      meetingNumber: '1234567890', userName: 'Notetaker', passWord: 'abc.1', signature: 'header.claims.mac', success: 'function', error: 'function', obfToken: 'obf-token-1',
    }, 'no sdkKey (deprecated since v4: the signature names the app), no zak next to the OBF token');
  });

  it('with a ZAK and no OBF token, the join carries the ZAK only', async () => {
    await joined({ ...credentials, obf_token: null, zak: 'zak-1', role: 1 });
    const { join } = await sdk();
    assert.equal(join.zak, 'zak-1');
    assert.ok(!('obfToken' in join));
  });

  it('reads the SDK’s events as the run’s screens: waiting room, call, participants, chat', async () => {
    const driver = await joined();
    assert.equal((await driver.read(0)).screen, 'prejoin', 'joining');
    await emit('onJoinSpeed', { level: 6 });
    assert.equal((await driver.read(0)).screen, 'lobby');
    await emit('onJoinSpeed', { level: 13 });
    await emit('onUserJoin', { userId: 16778240, userName: 'Notetaker', self: true });
    await emit('onUserJoin', { userId: 16779264, userName: 'Alice' });
    await emit('onActiveSpeaker', [{ userId: 16779264, userName: 'Alice' }]);
    await emit('onReceiveChatMsg', { senderId: 16779264, senderName: 'Alice', content: { text: 'hello', t: '1', messageId: 'm1' } });
    const snap = await driver.read(0);
    assert.equal(snap.screen, 'in_call');
    assert.equal(snap.selfId, '16778240');
    assert.deepEqual(snap.participants.map((p) => p.name).sort(), ['Alice', 'Notetaker']);
    assert.equal(snap.activeSpeaker, 'Alice');
    assert.deepEqual(snap.chat, [{ sender_name: 'Alice', participant_id: '16779264', text: 'hello' }]);
    await driver.requestRecording();
    assert.equal((await sdk()).permissionAsked, true, 'capture refused without permission: asks the host');
    await emit('onMediaCapturePermissionChange', { allow: true });
    assert.equal((await driver.read(0)).recordingPermission, 'granted');
  });

  it('the authorised user absent (4017) is a retry; the user leaving (4019) ends the run normally; a bad signature is SDK_AUTH_FAILED', async () => {
    const absent = await joined();
    await page.evaluate(() => (window as any).__sdk.joinCallbacks.error({ errorCode: 4017, errorMessage: 'Authorized user not in meeting.' }));
    assert.equal((await absent.read(0)).screen, 'waiting_for_authorized_user');

    const left = await joined();
    await emit('onJoinSpeed', { level: 13 });
    await emit('onMeetingStatus', { meetingStatus: 3, errorCode: 4019, reason: 'The authorized user left the meeting.' });
    const gone = await left.read(0);
    assert.equal(gone.screen, 'removed');
    assert.deepEqual(gone.endCause, { kind: 'authorized_user_left' });
    assert.deepEqual(endVerdict(gone.endCause!, { platform: 'vc', phase: 'in_call', recordingStarted: true }).error_code, 'BOT_REMOVED');

    const refused = await joined();
    await page.evaluate(() => (window as any).__sdk.joinCallbacks.error({ errorCode: 3712, errorMessage: 'Signature is invalid.' }));
    const snap = await refused.read(0);
    assert.equal(snap.screen, 'refused');
    assert.equal(snap.endCause?.kind === 'vc_refused' && snap.endCause.error_code, 'SDK_AUTH_FAILED');
  });

  it('a retry asks the service again when the source gives fresh tokens, and joins on a new page; a refusal then is the run’s end', async () => {
    await page.goto(host.url);
    renewals = [{ ok: true, credentials: { sdk: { ...credentials, obf_token: 'obf-token-2' }, retry_seconds: 30, renewable: true } }];
    const driver = driverFor(credentials, true);
    await driver.join('Notetaker');
    await driver.retryJoin!.run();
    await page.waitForFunction('window.__sdk.join !== null');
    assert.equal((await sdk()).join.obfToken, 'obf-token-2');
    renewals = [{ ok: false, refusal: { error_code: 'VC_OBF_TOKEN_ERROR', message: 'The OBF token URL answered HTTP 500.' } }];
    await driver.retryJoin!.run();
    const snap = await driver.read(0);
    assert.equal(snap.screen, 'refused');
    assert.deepEqual(snap.endCause, { kind: 'vc_refused', error_code: 'VC_OBF_TOKEN_ERROR', message: 'The OBF token URL answered HTTP 500.' });
  });
});

/**
 * The real `@zoom/meetingsdk` (not a dependency: see docs/decisions.md, Issue 21), when it is installed or
 * ZOOM_MEETINGSDK_DIR names its dist folder: it loads from the bot's page with its assets from the same
 * origin, and a join it cannot complete (no platform reachable from here) comes back through its error
 * callback, which the driver reads as a failure to join.
 */
describe('the real Meeting SDK for Web on the bot’s page', function () {
  this.timeout(60_000);
  const dist = process.env.ZOOM_MEETINGSDK_DIR ?? installedMeetingSdk()?.distDir ?? null;
  let host: SdkHostServer;
  let browser: Browser;
  before(async function () {
    if (!dist) {
      console.log('  skipped: @zoom/meetingsdk is not installed and ZOOM_MEETINGSDK_DIR is not set');
      this.skip();
    }
    host = await startSdkHostServer({ kind: 'package', distDir: dist! });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('loads from loopback (no CDN), its wasm from the bot’s own server, and a join that cannot reach the platform fails through its callback', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      // blob: and data: URLs are the page's own
      if ((u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'wss:') && u.hostname !== '127.0.0.1') outside.push(u.hostname);
    });
    await page.goto(host.url);
    await page.waitForFunction('window.botSdk.state().phase === "ready"', { timeout: 30_000 });
    const signature = signSdkJwt(sdkSignatureClaims('sdk-key-of-nobody', '1234567890', 0, Date.now()), 'secret-of-nobody');
    const driver = new VcSdkDriver(page, { first: { sdk: { ...credentials, signature, obf_token: null }, retry_seconds: 30, renewable: false }, renew: async () => assert.fail('no retry') }, host.url, { botName: 'Notetaker', recordingMode: 'audio_only' }, new BotLog());
    await driver.join('Notetaker');
    await page.waitForFunction('window.botSdk.state().phase === "failed"', { timeout: 30_000 });
    const snap = await driver.read(0);
    assert.equal(snap.screen, 'refused');
    assert.equal(snap.endCause?.kind, 'cannot_join');
    assert.deepEqual([...new Set(outside)], ['zoom.us'], 'the only host it reaches for is the platform itself');
  });
});

describe('the Meeting SDK for Web’s error codes as the spec’s vc codes', () => {
  const cases: [number, boolean, string][] = [
    [3712, false, 'SDK_AUTH_FAILED'], [3705, false, 'SDK_AUTH_FAILED'], [3706, false, 'SDK_AUTH_FAILED'], [3704, false, 'SDK_AUTH_FAILED'],
    [4011, false, 'UNABLE_JOIN_EXTERNAL_MEETING'], [4012, false, 'UNABLE_JOIN_EXTERNAL_MEETING'], [4013, false, 'UNABLE_JOIN_EXTERNAL_MEETING'],
    [4014, false, 'VC_OBF_TOKEN_ERROR'], [4015, false, 'VC_OBF_TOKEN_ERROR'], [3636, false, 'VC_OBF_TOKEN_ERROR'],
    [3265, true, 'VC_ACCESS_TOKEN_ERROR'], [3003, true, 'VC_ACCESS_TOKEN_ERROR'], [3003, false, 'SDK_AUTH_FAILED'],
  ];
  for (const [code, zak, expected] of cases) {
    it(`${code}${zak ? ' (with a ZAK)' : ''} -> ${expected}`, () => {
      const outcome = sdkErrorOutcome(code, 'words', { zak });
      assert.equal(outcome.kind, 'end');
      if (outcome.kind !== 'end') return;
      assert.equal(endVerdict(outcome.cause, { platform: 'vc', phase: 'joining', recordingStarted: false }).error_code, expected);
    });
  }
  it('4017 is a retry (and 1 when the join carried an OBF token, as Attendee reads it), 3008 waiting for the host, anything else a failure to join that says the code', () => {
    assert.equal(sdkErrorOutcome(4017, 'x', { zak: false }).kind, 'retry');
    assert.equal(sdkErrorOutcome(1, 'Fail to join the meeting.', { zak: false, obf: true }).kind, 'retry');
    assert.equal(sdkErrorOutcome(1, 'Fail to join the meeting.', { zak: false, obf: false }).kind, 'end');
    assert.equal(sdkErrorOutcome(3008, 'x', { zak: false }).kind, 'waiting_for_host');
    const other = sdkErrorOutcome(3001, 'Meeting does not exist.', { zak: false });
    assert.ok(other.kind === 'end');
    const verdict = endVerdict(other.cause, { platform: 'vc', phase: 'joining', recordingStarted: false });
    assert.equal(verdict.error_code, 'CANNOT_JOIN_MEETING');
    assert.match(verdict.error_message, /Meeting SDK error 3001/);
  });
  it('waiting for the authorised user past the waiting room timeout is WAITING_FOR_AUTHORIZED_USER_TIMEOUT', () => {
    assert.equal(endVerdict({ kind: 'auto_leave', reason: 'waiting_room_timeout' }, { platform: 'vc', phase: 'waiting_for_user', recordingStarted: false }).error_code, 'WAITING_FOR_AUTHORIZED_USER_TIMEOUT');
  });
});
