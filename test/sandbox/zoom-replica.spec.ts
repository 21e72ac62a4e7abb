/**
 * The Zoom web client replica against its contract (research note 4.7), in a real Chromium that
 * reaches zoom.us and app.zoom.us the way a bot with SANDBOX_REPLICAS does (host-resolver rules, the
 * sandbox certificate pinned). Checks the page itself, not a driver: the link forms and the launch
 * page, the host-not-started page, the media prompts and consent layers, both forms (Join disabled
 * until real keys type a name), the spinner and the waiting room with their traps, the call's footer,
 * audio, panes, chat and layouts, the leave dialog, the walls and the end modals.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { replicaPageSuite } from '../support/replica-browser';
import { zoomPasscode } from '../../sandbox/zoom/flavour';

const WAIT = { timeout: 10_000 };

describe('Zoom web client replica (Chromium, real host names)', function () {
  this.timeout(40_000);
  const suite = replicaPageSuite({ platform: 'vc', replica: 'zoom' });
  const { pages, meeting: zoom } = suite;
  /** the React web client's URL for a meeting link, pwd kept (what the driver opens) */
  const webClient = (link: string, host = 'app.zoom.us') => {
    const url = new URL(link);
    const id = url.pathname.split('/').pop();
    return `https://${host}/wc/${id}/join${url.search}`;
  };

  const open = (url: string) => pages.open(url);

  const bodyText = (page: Page) => page.evaluate('document.body.innerText') as Promise<string>;
  const waitForText = (page: Page, text: string) => page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, WAIT);
  const count = (page: Page, selector: string) => page.$$eval(selector, (els) => els.length);
  const clickText = async (page: Page, text: string) => {
    const button = await page.waitForSelector(`xpath/.//button[normalize-space(.)=${JSON.stringify(text)}]`, WAIT);
    await button!.click();
  };
  const liveAudio = (page: Page) =>
    page.evaluate(`Array.from(document.querySelectorAll('audio')).filter((a) => a.srcObject instanceof MediaStream && a.srcObject.getAudioTracks().some((t) => t.readyState === 'live')).length`) as Promise<number>;

  /** Allows the media prompts, types the name with key events, mutes and stops video in the preview, joins. */
  const joinReact = async (page: Page, name = 'Rec Bot') => {
    await clickText(page, 'Allow');
    await clickText(page, 'Allow');
    await page.waitForSelector('#input-for-name', WAIT);
    await page.type('#input-for-name', name);
    await page.click('#preview-audio-control-button');
    await page.click('#preview-video-control-button');
    await page.click('button.preview-join-button');
  };
  const wakeFooter = async (page: Page) => {
    await page.mouse.move(200, 200);
    await page.mouse.move(210, 210);
  };

  it('links: https://zoom.us/j/<id>?pwd=… and a regional subdomain open the launch page, whose link keeps the query; an unknown meeting is "invalid (3,001)"', async () => {
    const m = await zoom();
    assert.match(m.url, /^https:\/\/zoom\.us\/j\/\d{9,11}\?pwd=[A-Za-z0-9_-]{32}\.1$/);
    assert.equal(m.replica, 'zoom');
    for (const url of [m.url, m.url.replace('//zoom.us/', '//us05web.zoom.us/')]) {
      const page = await open(url);
      const text = await bodyText(page);
      for (const t of ['Launch Meeting', 'Download Now', 'Join from your browser']) assert.ok(text.includes(t), t);
      const href = await page.$eval('xpath/.//a[normalize-space(.)="Join from your browser"]', (a) => (a as HTMLAnchorElement).href);
      assert.equal(href, `${new URL(url).origin}/wc/join/${m.meeting_id}${new URL(url).search}`);
    }
    const missing = await open('https://app.zoom.us/wc/98765432101/join');
    assert.equal(await missing.title(), 'Error - Zoom');
    assert.match(await bodyText(missing), /This meeting link is invalid \(3,001\)/);
    assert.equal(suite.sandbox.registry.find(m.meeting_id, 'vc'), null, "the sandbox's own vc host does not serve replica meetings");
  });

  it('React client: two media prompts, then #input-for-name and a Join that real keys enable (not a value set by script), preview toggles', async () => {
    const m = await zoom();
    const page = await open(webClient(m.url));
    await page.waitForSelector('xpath/.//button[normalize-space(.)="Continue without microphone and camera"]', WAIT);
    await clickText(page, 'Allow');
    await clickText(page, 'Allow');
    await page.waitForSelector('#input-for-name', WAIT);
    assert.equal(await count(page, '#input-for-pwd'), 0, 'the link carries the passcode');
    const joinDisabled = () => page.$eval('button.preview-join-button', (b) => b.classList.contains('disabled'));
    assert.equal(await joinDisabled(), true);
    await page.$eval('#input-for-name', (e) => {
      (e as HTMLInputElement).value = 'Scripted';
      e.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.equal(await joinDisabled(), true, 'a value set by script leaves Join disabled');
    const onTop = await page.$eval('button.preview-join-button', (b) => {
      const r = b.getBoundingClientRect();
      return (document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) as Element).className;
    });
    assert.equal(onTop, 'preview-meeting-info', '.preview-meeting-info takes the clicks');
    await page.click('#input-for-name', { clickCount: 3 });
    await page.type('#input-for-name', 'Rec Bot');
    assert.equal(await joinDisabled(), false, 'typed with real keys');
    assert.deepEqual(
      await page.$$eval('#preview-audio-control-button, #preview-video-control-button', (bs) => bs.map((b) => b.getAttribute('aria-label'))),
      ['Mute', 'Stop Video'],
    );
    await page.click('#preview-audio-control-button');
    await page.click('#preview-video-control-button');
    assert.deepEqual(
      await page.$$eval('#preview-audio-control-button, #preview-video-control-button', (bs) => bs.map((b) => b.getAttribute('aria-label'))),
      ['Unmute', 'Start Video'],
    );
    await page.click('button.preview-join-button');
    const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
    assert.deepEqual([bot.name, bot.microphone, bot.camera], ['Rec Bot', false, false]);
  });

  it('passcode: a link without pwd or with a wrong one shows the passcode field (Join needs it); the right passcode joins', async () => {
    const m = await zoom({ permission_prompts: 0 });
    const wrong = await open(webClient(m.url).replace(/pwd=[^&]+/, 'pwd=nope'));
    await wrong.waitForSelector('input[type="password"][placeholder*="passcode" i]', WAIT);
    assert.match(await bodyText(wrong), /Incorrect passcode/);
    const page = await open(webClient(m.url).replace(/\?.*$/, ''));
    await page.waitForSelector('#input-for-pwd', WAIT);
    await page.type('#input-for-name', 'Rec Bot');
    assert.equal(await page.$eval('button.preview-join-button', (b) => b.classList.contains('disabled')), true, 'an empty passcode keeps Join disabled');
    await page.type('#input-for-pwd', zoomPasscode(m.meeting_id));
    await page.click('button.preview-join-button');
    await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
  });

  it('classic client (/wc/join/<id>): OneTrust covers #inputname until accepted; the disclaimer first when set; #joinBtn joins', async () => {
    const m = await zoom({ permission_prompts: 0, disclaimer: true });
    const page = await open(`https://zoom.us/wc/join/${m.meeting_id}${new URL(m.url).search}`);
    const agree = await page.waitForSelector('#disclaimer_agree', WAIT);
    await agree!.click();
    await page.waitForSelector('#inputname[placeholder="Your Name"]', WAIT);
    const covering = await page.$eval('#inputname', (e) => {
      const r = e.getBoundingClientRect();
      return (document.elementFromPoint(r.x + 5, r.y + 5) as Element).className;
    });
    assert.equal(covering, 'onetrust-pc-dark-filter', "OneTrust's layer lies over the form");
    await page.click('#onetrust-accept-btn-handler');
    assert.equal(await count(page, '#onetrust-consent-sdk'), 0);
    await page.type('#inputname', 'Classic Bot');
    await page.click('#joinBtn');
    const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
    assert.equal(bot.name, 'Classic Bot');
  });

  for (const [wording, text] of [
    ['please_wait', 'Please wait, the meeting host will let you in soon.'],
    ['host_joined', 'Host has joined. We\u2019ve let them know you\u2019re here.'],
  ] as const) {
    it(`after Join: "Joining Meeting…" over an empty video player, then the waiting room (${wording}) inside .meeting-app with live preview audio`, async () => {
      const m = await zoom({ waiting_room_wording: wording, joining_seconds: 1 });
      const page = await open(webClient(m.url));
      await joinReact(page);
      await waitForText(page, 'Joining Meeting\u2026');
      assert.equal(await count(page, '#video-share-layout video-player'), 1, 'the empty player behind the spinner (trap)');
      await waitForText(page, text);
      assert.equal(await count(page, `.meeting-app`), 1);
      assert.equal(await liveAudio(page), 1, "the bot's microphone preview stays live (trap)");
    });
  }

  it('the host has not started: Zoom\'s static error page, until the host starts (after a delay); or "Waiting for the host…" after Join', async () => {
    const m = await zoom({ host_present: false, host_starts_after_seconds: 1.5 });
    const page = await open(webClient(m.url));
    assert.equal(await page.title(), 'Error - Zoom');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.host_present, WAIT.timeout, 'the host to start after the delay');
    assert.match(await bodyText(page), /This meeting link is invalid \(3,001\)/, 'the page does not change by itself');
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForSelector('xpath/.//button[normalize-space(.)="Allow"]', WAIT);

    const later = await zoom({ host_present: false, host_absent_page: 'waiting' });
    const waiting = await open(webClient(later.url));
    await joinReact(waiting);
    await waitForText(waiting, 'Waiting for the host to start this meeting');
    await suite.sandbox.client.hostStart(later.meeting_id);
    await waitForText(waiting, 'Please wait, the meeting host will let you in soon.');
  });

  it('in the call: footer that hides, computer audio (mixed stream) resetting the microphone, panes, chat, View -> Gallery, leave dialog', async () => {
    const m = await zoom({ lobby: false, footer_autohide_seconds: 1 });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const page = await open(webClient(m.url));
    await joinReact(page);
    await page.waitForSelector('.single-main-container__video-frame', WAIT);
    const bot = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.kind === 'browser')!;
    assert.equal(await page.$eval('.single-main-container__video-frame .video-avatar__avatar-footer > span', (e) => e.textContent), 'Alice');
    assert.equal(await count(page, '[footer-section="right"] button.footer-button__button[aria-label="Leave"]'), 1);
    assert.equal(await count(page, '.zm-modal button'), 1, 'an AI Companion notice with OK');
    assert.equal(await liveAudio(page), 0, 'no audio before computer audio is joined');

    await page.waitForFunction(`getComputedStyle(document.querySelector('#wc-footer')).visibility === 'hidden'`, WAIT);
    await wakeFooter(page);
    assert.equal(await page.$eval('#foot-bar', (e) => getComputedStyle(e).visibility), 'visible', 'a pointer move brings the footer back');

    await clickText(page, 'OK');
    await clickText(page, 'Join Audio by Computer');
    await page.waitForSelector('button.join-audio-container__btn[aria-label="mute my microphone"]', WAIT);
    assert.equal(await liveAudio(page), 1, 'one mixed stream once audio is joined');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.find((p) => p.participant_id === bot.participant_id)?.microphone === true, 5000, 'the microphone live again');
    await wakeFooter(page);
    await page.click('button.join-audio-container__btn');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.find((p) => p.participant_id === bot.participant_id)?.microphone === false, 5000, 'muted');
    assert.equal(await count(page, 'button[aria-label="unmute my microphone"]'), 1);

    await wakeFooter(page);
    await page.click('button[aria-label="open the participants list pane"]');
    const names = await page.$$eval('#participants-ul .participants-item', (items) => items.map((i) => i.textContent));
    assert.deepEqual(names, ['Alice(Host)', 'Rec Bot(me)']);
    assert.equal(await count(page, 'button[aria-label="close the participants list pane"]'), 1);

    await wakeFooter(page);
    await page.click('button[aria-label="open the chat panel"]');
    await page.waitForSelector('.chat-rtf-box__editor-outer div.tiptap.ProseMirror[contenteditable="true"]', WAIT);
    assert.equal(await count(page, 'button[aria-label="Chat Settings"]'), 1, '"Chat Settings" beside the panel (trap for substring matches)');
    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Hello bot');
    await page.waitForSelector('[aria-label="Chat Message List"] .chat-virtuoso-wrapper div[data-index] .new-chat-message__container .new-chat-message__content', WAIT);
    await page.click('div.tiptap.ProseMirror');
    await page.keyboard.type('Hello Alice');
    await page.keyboard.press('Enter');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.messages.length === 2, 5000, 'the page message');
    await page.waitForFunction(`document.querySelectorAll('.new-chat-message__container').length === 2`, WAIT);
    const groups = await page.$$eval('.chat-virtuoso-wrapper > div[data-index]', (gs) => gs.map((g) => [g.querySelector('.chat-item__sender')?.textContent, Array.from(g.querySelectorAll('.new-chat-message__content')).map((t) => t.textContent)]));
    assert.deepEqual(groups, [['Alice', ['Hello bot']], ['Rec Bot', ['Hello Alice']]]);

    await page.click('button[aria-label="View"]');
    await clickTextMenu(page, 'Gallery View');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.some((p) => p.layout === 'Gallery View'), 5000, 'the layout');
    assert.equal(await count(page, '.single-main-container__video-frame'), 0);
    assert.equal(await count(page, '.gallery-video-container__video-frame'), 2);

    await wakeFooter(page);
    await page.click('[footer-section="right"] button[aria-label="Leave"]');
    const danger = await page.waitForSelector('button.leave-meeting-options__btn--danger', WAIT);
    assert.equal(await danger!.evaluate((b) => b.getAttribute('aria-label')), '', 'an empty aria-label');
    await page.keyboard.press('Enter');
    assert.equal(await count(page, 'button.leave-meeting-options__btn--danger'), 0, 'Enter cancels the dialog');
    await wakeFooter(page);
    await page.click('[footer-section="right"] button[aria-label="Leave"]');
    await Promise.all([page.waitForNavigation(WAIT), (await page.waitForSelector('button.leave-meeting-options__btn--danger', WAIT))!.click()]);
    assert.equal(new URL(page.url()).pathname, '/signin', 'the post-meeting page');
    const left = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.participant_id === bot.participant_id)!;
    assert.deepEqual([left.state, left.end_reason], ['left', 'left']);
  });

  it('audio: speech from several participants is mixed into the one stream; the main tile follows the latest speaker and keeps them', async () => {
    const m = await zoom({ lobby: false });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const bob = await suite.sandbox.client.addSimulated(m.meeting_id, 'Bob', 'en+m3');
    const page = await open(webClient(m.url));
    await joinReact(page);
    await page.waitForSelector('.single-main-container__video-frame', WAIT);
    const before = await suite.sandbox.client.speak(m.meeting_id, bob.participant_id, 'Before audio.');
    assert.deepEqual(before.listeners, [], 'a page without computer audio hears nothing');
    await clickText(page, 'OK');
    await clickText(page, 'Join Audio by Computer');
    await page.waitForSelector('button[aria-label="mute my microphone"]', WAIT);
    await page.evaluate(`(() => {
      const ctx = new AudioContext();
      const an = ctx.createAnalyser();
      ctx.createMediaStreamSource(document.querySelector('audio').srcObject).connect(an);
      const buf = new Float32Array(an.fftSize);
      window.__loud = 0;
      setInterval(() => { an.getFloatTimeDomainData(buf); if (buf.some((x) => Math.abs(x) > 0.01)) window.__loud++; }, 20);
    })()`);
    const main = () => page.$eval('.single-main-container__video-frame .video-avatar__avatar-footer > span', (e) => e.textContent);
    const both = await Promise.all([
      suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'We speak at the same time about the quarterly plan, the budget and the hiring plan.'),
      suite.sandbox.client.speak(m.meeting_id, bob.participant_id, 'Yes, we both speak now, about the servers that were upgraded last night and the release.'),
    ]);
    const bot = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.kind === 'browser')!;
    for (const b of both) assert.ok(b.listeners.includes(bot.participant_id), 'the page plays every speaker');
    assert.equal(await count(page, 'audio'), 1, 'one audio element: Zoom delivers the mix');
    // the mix is heard at the page's pace: read until it carried the speech (bounded)
    await page.waitForFunction('window.__loud > 20', WAIT).catch(() => undefined);
    assert.ok(((await page.evaluate('window.__loud')) as number) > 20, 'the mixed stream carried the speech');
    const longest = Math.max(...both.map((b) => b.duration_seconds));
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.speaking.length === 0, longest * 1000 + WAIT.timeout, 'both to stop speaking');
    const spoken = await main();
    assert.ok(spoken === 'Alice' || spoken === 'Bob', `the main tile shows a speaker (${spoken})`);
    const third = await suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'Alice again.');
    await page.waitForFunction(`document.querySelector('.single-main-container__video-frame .video-avatar__avatar-footer > span').textContent === 'Alice'`, WAIT);
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.speaking.length === 0, third.duration_seconds * 1000 + WAIT.timeout, 'everyone to stop speaking');
    assert.equal(await main(), 'Alice', 'the main tile keeps the last speaker after they stop');
  });

  it('outcomes: removed from the waiting room, removed from the call, ended (modals); the bot wall and the captcha after Join; the sign-in page', async () => {
    const m = await zoom({ lobby: true });
    const [waiting, inCall, other] = [await open(webClient(m.url)), await open(webClient(m.url)), await open(webClient(m.url))];
    await joinReact(waiting, 'One');
    await joinReact(inCall, 'Two');
    await joinReact(other, 'Three');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.filter((p) => p.state === 'lobby').length === 3, 5000, 'all waiting');
    const byName = async (name: string) => (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === name)!;
    await suite.sandbox.client.deny(m.meeting_id, (await byName('One')).participant_id);
    await waiting.waitForSelector('.zm-modal .zm-modal-body-title', WAIT);
    assert.equal(await waiting.$eval('.zm-modal-body-title', (e) => e.textContent), 'You have been removed from the meeting');
    await suite.sandbox.client.admit(m.meeting_id, (await byName('Two')).participant_id);
    await inCall.waitForSelector('.single-main-container__video-frame', WAIT);
    await suite.sandbox.client.admit(m.meeting_id, (await byName('Three')).participant_id);
    await suite.sandbox.client.remove(m.meeting_id, (await byName('Two')).participant_id);
    await waitForText(inCall, 'You have been removed from the meeting');
    await suite.sandbox.client.end(m.meeting_id);
    await other.waitForFunction(`document.querySelector('.zm-modal-body-title') && document.querySelector('.zm-modal-body-title').textContent === 'This meeting has been ended by host'`, WAIT);

    const wall = await open(webClient((await zoom({ wall: 'bot' })).url));
    await joinReact(wall);
    await waitForText(wall, 'We detected you may be a bot. Automated bots aren\u2019t allowed to join this meeting or webinar and must use Zoom RTMS.');
    const captcha = await open(webClient((await zoom({ wall: 'captcha' })).url));
    await joinReact(captcha);
    await captcha.waitForSelector('.component_smart_captcha input[placeholder*="captcha" i]', WAIT);
    assert.match(await bodyText(captcha), /Type the characters you see/);
    const auth = await open(webClient((await zoom({ wall: 'auth' })).url));
    assert.match(await bodyText(auth), /This meeting requires authentication/);
    assert.match(await bodyText(auth), /sign in to join this meeting/);
  });

  it('rejects bad settings naming the field', async () => {
    for (const [body, field] of [
      [{ wall: 'nope' }, 'wall'],
      [{ permission_prompts: 3 }, 'permission_prompts'],
      [{ host_starts_after_seconds: -1 }, 'host_starts_after_seconds'],
      [{ passcode: 'yes' }, 'passcode'],
      [{ passcode_prompt: 'sometimes' }, 'passcode_prompt'],
      [{ audio_output: 'speakers' }, 'audio_output'],
      [{ ended_wording: 'bye' }, 'ended_wording'],
      [{ state_container: 'iframe' }, 'state_container'],
      [{ end_redirect: 'home' }, 'end_redirect'],
      [{ quotes: 'smart' }, 'quotes'],
      [{ lookalikes: 'yes' }, 'lookalikes'],
    ] as const) {
      await assert.rejects(zoom(body as Partial<CreateMeetingRequest>), (err: Error & { status?: number }) => err.status === 400 && err.message.includes(field));
    }
    await assert.rejects(suite.sandbox.client.createMeeting({ platform: 'mt', replica: 'zoom' }), /vc flavour/);
  });
});

const clickTextMenu = async (page: Page, text: string) => {
  const item = await page.waitForSelector(`xpath/.//*[@role="menuitem"][normalize-space(.)=${JSON.stringify(text)}]`, WAIT);
  await item!.click();
};
