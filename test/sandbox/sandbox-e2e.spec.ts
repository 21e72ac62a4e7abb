/**
 * The sandbox pages in a real Chromium (puppeteer-core, /usr/bin/chromium), driven the way a bot
 * drives them, with the meeting scripted through the control API.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import type { Platform } from '../../sandbox/meeting-state';
import { browserTrustingSandbox } from './sandbox-browser';

const hook = (id: string) => `[data-testid="${id}"]`;
const WAIT = { timeout: 10_000 };

describe('sandbox meeting platform in Chromium', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    browser = await browserTrustingSandbox(sandbox);
  });

  after(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });

  async function openMeeting(url: string): Promise<Page> {
    const context = await browser.createBrowserContext();
    contexts.push(context);
    const page = await context.newPage();
    const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    assert.equal(response?.status(), 200);
    await page.waitForSelector(hook('name-input'), WAIT);
    return page;
  }

  async function joinAs(page: Page, name: string): Promise<void> {
    await page.click(hook('name-input'), { clickCount: 3 });
    await page.type(hook('name-input'), name);
    await page.click(hook('join-button'));
  }

  const names: Record<Platform, string> = { vc: 'Notetaker (vc)', tm: "Note Taker · O'Brien", mt: 'Notetaker mt' };

  for (const platform of ['vc', 'tm', 'mt'] as const) {
    it(`${platform}: lobby, admitted, participants, chat both ways, removed`, async () => {
      const client = sandbox.client;
      const { meeting_id, url } = await client.createMeeting({ platform, lobby: true });
      assert.match(url, new RegExp(`^https://${platform}\\.localhost:${sandbox.port}/`));
      const page = await openMeeting(url);
      assert.equal(await page.$eval('body', (b) => b.getAttribute('data-platform')), platform);
      assert.match(await page.title(), new RegExp(platform.toUpperCase()));

      if (platform === 'tm') {
        // a guest name that breaks the tm rules is refused on the page
        await joinAs(page, 'Bot  (recording)');
        const error = await page.waitForSelector(hook('join-error'), WAIT);
        assert.match(await error!.evaluate((e) => e.textContent ?? ''), /cannot be used/);
        assert.ok(await page.$(hook('lobby')) === null);
        const refused = await client.getMeeting(meeting_id);
        assert.ok(refused.events.some((e) => e.type === 'join_refused'));
      }

      const name = names[platform];
      await joinAs(page, name);
      await page.waitForSelector(hook('lobby'), WAIT);
      assert.equal(await page.$(hook('call-view')), null);
      const bot = await client.waitForParticipant(meeting_id, 'lobby', 5000);
      assert.equal(bot.name, name);
      assert.equal(bot.joined_at, null);
      assert.ok(bot.requested_at);

      await client.admit(meeting_id, bot.participant_id);
      await page.waitForSelector(hook('call-view'), WAIT);
      assert.equal(await page.$(hook('lobby')), null);

      const alice = await client.addSimulated(meeting_id, 'Alice');
      await client.chat(meeting_id, alice.participant_id, `Hello from Alice on ${platform}`);
      const message = await page.waitForSelector(`${hook('chat-message')}[data-sender="Alice"]`, WAIT);
      assert.equal(await message!.evaluate((e) => e.textContent), `Hello from Alice on ${platform}`);
      assert.equal(await message!.evaluate((e) => e.getAttribute('data-participant-id')), alice.participant_id);

      await page.waitForFunction(`document.querySelectorAll('[data-testid="participant"]').length === 2`, WAIT);
      const listed = await page.$$eval(`${hook('participant-list')} ${hook('participant')}`, (els) =>
        els.map((e) => [e.getAttribute('data-name'), e.getAttribute('data-participant-id')]),
      );
      assert.deepEqual(listed, [
        [name, bot.participant_id],
        ['Alice', alice.participant_id],
      ]);
      assert.equal(await page.$eval(hook('active-speaker'), (e) => e.getAttribute('data-name')), '');

      await page.type(hook('chat-input'), `Hi Alice, the bot here (${platform})`);
      await page.click(hook('chat-send'));
      const withBotMessage = await client.waitFor(meeting_id, (m) => m.messages.length === 2, 5000, 'the bot message');
      assert.deepEqual(
        withBotMessage.messages.map((m) => [m.sender_name, m.participant_id, m.text]),
        [
          ['Alice', alice.participant_id, `Hello from Alice on ${platform}`],
          [name, bot.participant_id, `Hi Alice, the bot here (${platform})`],
        ],
      );
      await page.waitForFunction(`document.querySelectorAll('[data-testid="chat-message"]').length === 2`, WAIT);

      await client.remove(meeting_id, bot.participant_id);
      await page.waitForSelector(hook('removed'), WAIT);
      assert.equal(await page.$(hook('call-view')), null);
      const after = await client.getMeeting(meeting_id);
      const gone = after.participants.find((p) => p.participant_id === bot.participant_id)!;
      assert.equal(gone.state, 'removed');
      assert.ok(gone.joined_at && gone.left_at && gone.left_at >= gone.joined_at);
    });
  }

  it('vc: waits for the host, gets recording permission, hears a speaker through tab capture, sees the end', async () => {
    const client = sandbox.client;
    const { meeting_id, url } = await client.createMeeting({ platform: 'vc', host_present: false, lobby: false, recording_permission: 'ask' });
    const page = await openMeeting(url);
    await joinAs(page, 'Recorder');
    await page.waitForSelector(hook('waiting-for-host'), WAIT);
    const bot = await client.waitForParticipant(meeting_id, 'waiting_for_host', 5000);

    await client.hostStart(meeting_id);
    await page.waitForSelector(hook('call-view'), WAIT);
    assert.equal(await page.$(hook('waiting-for-host')), null);
    assert.equal(await page.$eval(hook('recording-permission'), (e) => e.getAttribute('data-state')), 'none');

    await page.click(hook('request-recording'));
    await page.waitForSelector(`${hook('recording-permission')}[data-state="pending"]`, WAIT);
    await client.waitFor(meeting_id, (m) => m.participants.some((p) => p.recording_permission === 'pending'), 5000, 'a pending request');
    await client.answerRecording(meeting_id, bot.participant_id, true);
    await page.waitForSelector(`${hook('recording-permission')}[data-state="granted"]`, WAIT);

    // capture the tab's audio as a bot does, and measure its loudness
    const tracks = await page.evaluate(`(async () => {
      const stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true, preferCurrentTab: true });
      const ctx = new AudioContext();
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      ctx.createMediaStreamSource(stream).connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      window.__peak = 0;
      window.__reads = 0;
      setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        for (const v of samples) window.__peak = Math.max(window.__peak, Math.abs(v));
        window.__reads++;
      }, 20);
      return stream.getAudioTracks().length;
    })()`);
    assert.equal(tracks, 1);
    // silence is what the analyser read over its first 15 reads (at the page's pace, not after a fixed wait)
    await page.waitForFunction('window.__reads >= 15', WAIT);
    const silentPeak = (await page.evaluate('window.__peak')) as number;
    assert.ok(silentPeak < 0.01, `tab should be silent before speech, peak ${silentPeak}`);

    const bob = await client.addSimulated(meeting_id, 'Bob');
    const spoken = await client.speak(meeting_id, bob.participant_id, 'Hello, this is Bob. The quarterly numbers look good.');
    assert.ok(spoken.duration_seconds > 1.5 && spoken.duration_seconds < 10, `duration ${spoken.duration_seconds}`);
    assert.deepEqual(spoken.listeners, [bot.participant_id]);
    await page.waitForSelector(`${hook('active-speaker')}[data-name="Bob"]`, WAIT);
    assert.equal(await page.$eval(`${hook('participant')}[data-name="Bob"]`, (e) => e.getAttribute('data-speaking')), 'true');
    const control = await client.getMeeting(meeting_id);
    assert.deepEqual(control.speaking.map((s) => s.name), ['Bob']);
    await page.waitForSelector(`${hook('active-speaker')}[data-name=""]`, { timeout: spoken.duration_seconds * 1000 + 3000 });
    // the capture may lag the page's speaker indicator on a busy machine: read until the speech is in it
    await page.waitForFunction('window.__peak > 0.05', WAIT).catch(() => undefined);
    const peak = (await page.evaluate('window.__peak')) as number;
    assert.ok(peak > 0.05, `the speech should be audible in the tab capture, peak ${peak}`);

    await client.end(meeting_id);
    await page.waitForSelector(hook('meeting-ended'), WAIT);
    assert.equal(await page.$(hook('call-view')), null);
    const ended = await client.getMeeting(meeting_id);
    assert.equal(ended.ended, true);
    assert.equal(ended.participants.find((p) => p.participant_id === bot.participant_id)!.state, 'left');
  });

  it('unknown meetings and a closed page', async () => {
    const context = await browser.createBrowserContext();
    contexts.push(context);
    const page = await context.newPage();
    const response = await page.goto(sandbox.urlFor('mt', 'abc-defg-hij'));
    assert.equal(response?.status(), 404);
    assert.ok(await page.$(hook('meeting-not-found')));

    const { meeting_id, url } = await sandbox.client.createMeeting({ platform: 'mt', lobby: false, chat_enabled: false });
    const meetingPage = await openMeeting(url);
    await joinAs(meetingPage, 'Leaver');
    await meetingPage.waitForSelector(hook('chat-disabled'), WAIT);
    await meetingPage.type(hook('chat-input'), 'nobody will see this');
    await meetingPage.click(hook('chat-send'));
    await meetingPage.waitForSelector(hook('chat-error'), WAIT);
    const bot = await sandbox.client.waitForParticipant(meeting_id, 'in_call', 5000);
    await meetingPage.close();
    const left = await sandbox.client.waitFor(meeting_id, (m) => m.participants[0]!.state === 'left', 5000, 'the closed page to leave');
    assert.equal(left.participants[0]!.participant_id, bot.participant_id);
    assert.equal(left.messages.length, 0);
  });
});
