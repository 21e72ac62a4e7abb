/**
 * What sandbox pages publish from their microphone and camera, seen through the control API and on
 * the other participants' pages: a person's browser with Chromium's fake devices (a beep and a test
 * pattern) joins, and the control API tells what a simulated participant heard and shows the frames.
 */
import assert from 'node:assert/strict';
import type { Browser } from 'puppeteer-core';
import { SandboxApiError } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { readUntil } from '../support/read-until';
import { browserTrustingSandbox } from './sandbox-browser';

const hook = (id: string) => `[data-testid="${id}"]`;

/** A participant's camera frame is a 404 until its first frame came. */
const noFrameYet = (err: unknown): null => {
  if (err instanceof SandboxApiError && err.status === 404) return null;
  throw err;
};

describe('sandbox: participants publish their microphone and camera', function () {
  this.timeout(60_000);
  let sandbox: RunningSandbox;
  let browser: Browser;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    // a person who allows the microphone and camera; the devices are Chromium's fakes
    browser = await browserTrustingSandbox(sandbox, ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
  });

  after(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  const join = async (url: string, name: string, { cameraLateMs = 0 } = {}) => {
    const page = await (await browser.createBrowserContext()).newPage();
    if (cameraLateMs > 0) {
      // as on a busy machine: the page's camera frames reach the sandbox seconds after its microphone
      await page.setRequestInterception(true);
      page.on('request', (r) => (r.method() === 'POST' && r.url().endsWith('/camera') ? setTimeout(() => void r.continue(), cameraLateMs) : void r.continue()));
    }
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector(hook('name-input'));
    await page.type(hook('name-input'), name);
    await page.click(hook('join-button'));
    await page.waitForSelector(hook('call-view'));
    return page;
  };

  it('a simulated participant hears a page’s microphone; its camera frames are served and shown to the others', async () => {
    const m = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    const listener = await sandbox.client.addSimulated(m.meeting_id, 'Listener');
    await assert.rejects(sandbox.client.videoFrame(m.meeting_id, listener.participant_id), (e) => e instanceof SandboxApiError && e.status === 404);
    await join(m.url, 'Person', { cameraLateMs: 5000 });
    const person = (await sandbox.client.waitForParticipant(m.meeting_id, 'in_call', 10_000, 'Person')).participant_id;
    const viewer = await join(m.url, 'Viewer');
    const viewerId = (await sandbox.client.waitForParticipant(m.meeting_id, 'in_call', 10_000, 'Viewer')).participant_id;

    // the fake microphone beeps: the listener hears it, from the person's (and the viewer's) page; media
    // comes at the machine's pace, so each check reads until it holds (bounded), never after a fixed wait
    const media = { timeoutMs: 20_000, everyMs: 250 };
    const heard = await readUntil(() => sandbox.client.heard(m.meeting_id, listener.participant_id), (h) => h.from.length === 2 && h.peak_rms_100ms > 0.01, media);
    assert.deepEqual([...heard.from].sort(), [person, viewerId].sort());
    assert.ok(heard.peak_rms_100ms > 0.01, JSON.stringify(heard));
    const wav = await sandbox.client.heardWav(m.meeting_id, listener.participant_id);
    assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(wav.readUInt32LE(24), 16_000);
    // a participant does not hear itself
    const personHeard = await readUntil(() => sandbox.client.heard(m.meeting_id, person), (h) => h.from.length > 0, media);
    assert.deepEqual(personHeard.from, [viewerId]);

    // the person's camera: a JPEG frame a second, shown on the viewer's page in the person's row
    const frame = await readUntil(() => sandbox.client.videoFrame(m.meeting_id, person).catch(noFrameYet), (f) => f !== null, media);
    assert.ok(frame, 'the person sent a camera frame');
    assert.deepEqual([...frame.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    await viewer.waitForSelector(`${hook('participant')}[data-participant-id="${person}"] ${hook('participant-video')}:not([style*="none"])`, { timeout: 20_000 });
    const shown = await viewer.$eval(`${hook('participant-video')}[data-participant-id="${person}"]`, (img) => (img as HTMLImageElement).naturalWidth);
    assert.equal(shown, 320);
  });
});
