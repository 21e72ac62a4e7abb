/**
 * The real drivers against the replicas' page shapes (sandbox/replica-shapes.ts and each flavour's
 * settings, issue 22): states inside a child frame and a closed shadow root, redirect walls and
 * endings, wording variants with straight or curly quotes, lookalikes, the roster-only layout, Web
 * Audio playback, the passcode asked although the link carries it, toggles that are not buttons and
 * the editors' own input paths. One sandbox and one Chromium for the file; each test is one page
 * walking several shapes, driven by the driver the bot uses (families.ts), as a bot's tick would.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'puppeteer-core';
import { BotLog } from '../../bot-runtime/bot-log';
import { familyForUrl } from '../../bot-runtime/drivers/families';
import type { PageDriver, PageSnapshot } from '../../bot-runtime/drivers/page-driver';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { launchReplicaBrowser, ReplicaPages } from '../support/replica-browser';

const BOT = 'Rec Bot';

describe('the drivers on the replicas’ page shapes (one sandbox, one Chromium)', function () {
  this.timeout(60_000);
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

  interface Driven {
    readonly meetingId: string;
    readonly page: Page;
    readonly driver: PageDriver;
    readonly log: BotLog;
    /** reads until `want` holds (a navigation in between is retried); the last read */
    until(want: (s: PageSnapshot) => boolean, what: string, ms?: number): Promise<PageSnapshot>;
    /** the bot's participant in the sandbox, once it is in `state` */
    bot(state: 'lobby' | 'in_call' | 'denied' | 'removed' | 'left' | 'prejoin'): Promise<string>;
  }

  /** A meeting of the replica, its page opened by the family's driver at the URL the bot would open. */
  const drive = async (options: CreateMeetingRequest): Promise<Driven> => {
    const m = await sandbox.client.createMeeting(options);
    const family = familyForUrl(m.url)!;
    const log = new BotLog(null);
    const page = await pages.open();
    const driver = family.open(page, log);
    await page.goto(family.navigationUrl(m.url), { waitUntil: 'domcontentloaded' });
    return {
      meetingId: m.meeting_id,
      page,
      driver,
      log,
      until: async (want, what, ms = 15_000) => {
        const deadline = Date.now() + ms;
        let last: PageSnapshot | null = null;
        for (;;) {
          last = await driver.read(0).catch(() => last);
          if (last && want(last)) return last;
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${last?.screen} (${last?.evidence}); log:\n${log.text()}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      },
      bot: async (state) => (await sandbox.client.waitForParticipant(m.meeting_id, state, 15_000, BOT)).participant_id,
    };
  };
  const screen = (s: PageSnapshot['screen']) => (snap: PageSnapshot) => snap.screen === s;

  describe('Google Meet', () => {
    it('the waiting screen and the denial inside a child frame, Vexa’s lobby wording, the denial wording "You weren’t allowed…"', async () => {
      const d = await drive({ platform: 'mt', replica: 'meet', lobby: true, state_container: 'frame', lobby_wording: 'host_to_let_you_in', denied_wording: 'not_allowed' });
      await d.until(screen('prejoin'), 'the pre-join');
      await d.driver.join(BOT);
      const lobby = await d.until(screen('lobby'), 'the lobby');
      assert.match(lobby.evidence ?? '', /lobby: text "Waiting for the host[^"]*" \(in frame/);
      await sandbox.client.deny(d.meetingId, await d.bot('lobby'));
      const denied = await d.until(screen('denied'), 'the denial');
      assert.match(denied.evidence ?? '', /\(in frame/);
    });

    it('the sign-in upsell (a lookalike) on the pre-join, then a roster-only call: everyone from the People panel, the chat through the controlled textarea, the removal in a closed shadow root with straight quotes', async () => {
      const d = await drive({ platform: 'mt', replica: 'meet', lobby: false, lookalikes: true, roster_only: true, state_container: 'closed_shadow_root', quotes: 'straight', removed_wording: 'removed' });
      await sandbox.client.addSimulated(d.meetingId, 'Alice');
      await sandbox.client.addSimulated(d.meetingId, 'Bob Stone');
      assert.equal((await d.until(screen('prejoin'), 'the pre-join under the upsell')).screen, 'prejoin', '"Instead of waiting to be let in" is no lobby');
      await d.driver.join(BOT);
      await d.until(screen('in_call'), 'the call');
      assert.equal(await d.page.evaluate(`document.querySelectorAll('[data-participant-id]:not(.preview)').length`), 1, 'one tile');
      await d.driver.prepareCall();
      const snap = await d.until((s) => s.participants.length === 3, 'everyone from the roster');
      assert.deepEqual(snap.participants.map((p) => p.name).sort(), ['Alice', 'Bob Stone', BOT].sort());
      await d.driver.chat.post('hello through the editor');
      await sandbox.client.waitFor(d.meetingId, (v) => v.messages.some((x) => x.text === 'hello through the editor'), 10_000, 'the bot’s message');
      await sandbox.client.remove(d.meetingId, await d.bot('in_call'));
      const removed = await d.until(screen('removed'), 'the removal');
      assert.match(removed.evidence ?? '', /removed: text "You've been removed" \(in closed shadow root/);
    });

    it('endings by navigation: a block sending the page to the product site, a call ended onto the landing page', async () => {
      const blocked = await drive({ platform: 'mt', replica: 'meet', lobby: true, wall: 'product_redirect' });
      await blocked.until(screen('prejoin'), 'the pre-join');
      await blocked.driver.join(BOT);
      const wall = await blocked.until(screen('wall'), 'the block');
      assert.equal(wall.wall, 'blocked');
      assert.match(wall.notice ?? '', /the page went to https:\/\/workspace\.google\.com\/products\/meet\//);

      const ended = await drive({ platform: 'mt', replica: 'meet', lobby: false, end_redirect: 'landing' });
      await ended.until(screen('prejoin'), 'the pre-join');
      await ended.driver.join(BOT);
      await ended.until(screen('in_call'), 'the call');
      await sandbox.client.end(ended.meetingId);
      const end = await ended.until(screen('ended'), 'the end');
      assert.match(end.evidence ?? '', /ended: url not the meeting page/);
      assert.equal(new URL(ended.page.url()).toString(), 'https://meet.google.com/');
    });
  });

  describe('Microsoft Teams', () => {
    it('the lobby inside a child frame (Vexa’s wording), div switches turned off, then a roster-only call with the CKEditor-like composer and a lookalike toast', async () => {
      const d = await drive({ platform: 'tm', replica: 'teams', lobby: true, state_container: 'frame', lobby_wording: 'in_the_lobby', device_toggles: 'div_switch', roster_only: true, lookalikes: true });
      await sandbox.client.addSimulated(d.meetingId, 'Alice');
      await sandbox.client.addSimulated(d.meetingId, 'Bob Stone');
      await d.driver.join(BOT);
      const lobby = await d.until(screen('lobby'), 'the lobby');
      assert.match(lobby.evidence ?? '', /lobby: text "You're in the lobby" \(in frame/);
      const waiting = await sandbox.client.waitForParticipant(d.meetingId, 'lobby', 10_000, BOT);
      assert.deepEqual([waiting.microphone, waiting.camera], [false, false], 'the div switches turned off');
      await sandbox.client.admit(d.meetingId, waiting.participant_id);
      await d.until(screen('in_call'), 'the call, the removal notice of someone else notwithstanding');
      await d.driver.prepareCall();
      const snap = await d.until((s) => s.participants.length === 3, 'everyone from the People pane');
      assert.deepEqual(snap.participants.map((p) => p.name).sort(), ['Alice', 'Bob Stone', BOT]);
      await d.driver.chat.post('two lines\nthrough CKEditor');
      await sandbox.client.waitFor(d.meetingId, (v) => v.messages.some((x) => x.text === 'two lines\nthrough CKEditor'), 10_000, 'the bot’s message');
      assert.equal((await d.driver.read(0)).screen, 'in_call');
    });

    it('the denial in a closed shadow root (Vexa’s "You were denied entry"), the sign-in wording of Attendee, a block to the product site, a call ended onto the sign-in host', async () => {
      const denied = await drive({ platform: 'tm', replica: 'teams', lobby: true, state_container: 'closed_shadow_root', denied_wording: 'denied_entry' });
      await denied.driver.join(BOT);
      await denied.until(screen('lobby'), 'the lobby');
      await sandbox.client.deny(denied.meetingId, await denied.bot('lobby'));
      assert.match((await denied.until(screen('denied'), 'the denial')).evidence ?? '', /denied: text "You were denied entry" \(in closed shadow root/);

      const signIn = await drive({ platform: 'tm', replica: 'teams', wall: 'sign_in', sign_in_wording: 'not_signed_in', quotes: 'straight' });
      assert.equal((await signIn.until(screen('wall'), 'the sign-in wall')).wall, 'login_required');

      const product = await drive({ platform: 'tm', replica: 'teams', wall: 'product_redirect' });
      await product.driver.join(BOT);
      assert.equal((await product.until(screen('wall'), 'the block')).wall, 'blocked');

      const ended = await drive({ platform: 'tm', replica: 'teams', lobby: false, end_redirect: 'sign_in' });
      await ended.driver.join(BOT);
      await ended.until(screen('in_call'), 'the call');
      await sandbox.client.end(ended.meetingId);
      assert.match((await ended.until(screen('ended'), 'the end')).evidence ?? '', /ended: url not a page of the meeting/);
      assert.equal(new URL(ended.page.url()).hostname, 'login.microsoftonline.com');
    });
  });

  describe('Zoom', () => {
    it('the passcode asked although the link carries it, the waiting room in a child frame, then a call playing through Web Audio with lookalike notices: the main tile speaks', async () => {
      const d = await drive({ platform: 'vc', replica: 'zoom', lobby: true, passcode_prompt: 'always', state_container: 'frame', waiting_room_wording: 'admitted_shortly', audio_output: 'web_audio', lookalikes: true, permission_prompts: 1 });
      const alice = await sandbox.client.addSimulated(d.meetingId, 'Alice');
      await d.driver.join(BOT);
      assert.match(d.log.text(), /a passcode field although the link carries one: filled from the link/);
      const lobby = await d.until(screen('lobby'), 'the waiting room');
      assert.match(lobby.evidence ?? '', /\(in frame/);
      await sandbox.client.admit(d.meetingId, await d.bot('lobby'));
      await d.until(screen('in_call'), 'the call, the waiting-room notices notwithstanding');
      await d.driver.prepareCall();
      assert.equal(await d.page.evaluate('document.querySelectorAll("audio").length'), 0, 'no <audio> element: Web Audio only');
      await sandbox.client.speak(d.meetingId, alice.participant_id, 'The numbers for the third quarter are ready for everyone to review now');
      const speaking = await d.until((s) => s.activeSpeaker === 'Alice', 'Alice speaking');
      assert.equal(speaking.screen, 'in_call');
    });

    it('the end in a closed shadow root with "ended by the host", a call ended onto the product site, the sign-in redirect and the product-site block before the call', async () => {
      const shadow = await drive({ platform: 'vc', replica: 'zoom', lobby: false, state_container: 'closed_shadow_root', ended_wording: 'ended_by_the_host', permission_prompts: 0 });
      await shadow.driver.join(BOT);
      await shadow.until(screen('in_call'), 'the call');
      await sandbox.client.end(shadow.meetingId);
      assert.match((await shadow.until(screen('ended'), 'the end')).evidence ?? '', /ended: text "ended by the host" \(in closed shadow root/);

      const product = await drive({ platform: 'vc', replica: 'zoom', lobby: false, end_redirect: 'product', permission_prompts: 0 });
      await product.driver.join(BOT);
      await product.until(screen('in_call'), 'the call');
      await sandbox.client.end(product.meetingId);
      await product.until(screen('ended'), 'the end by navigation');
      assert.equal(new URL(product.page.url()).hostname, 'www.zoom.com');

      const signIn = await drive({ platform: 'vc', replica: 'zoom', wall: 'sign_in_redirect' });
      assert.equal((await signIn.until(screen('wall'), 'the sign-in redirect')).wall, 'login_required');

      const blocked = await drive({ platform: 'vc', replica: 'zoom', wall: 'product_redirect', permission_prompts: 0 });
      await blocked.driver.join(BOT);
      assert.equal((await blocked.until(screen('wall'), 'the block')).wall, 'blocked');
    });
  });
});
