/**
 * The Microsoft Teams replica against its contract (research note 3.8), in a real Chromium that
 * reaches teams.microsoft.com, teams.live.com, teams.cloud.microsoft and login.microsoftonline.com
 * the way a bot with SANDBOX_REPLICAS does (host-resolver rules, the sandbox certificate pinned).
 * Checks the page itself, not a driver: the link shapes, the launcher, the pre-join and its
 * AV-confirm modal, the lobby wordings, the call's controls, tiles, toast, view menu and chat, the one
 * mixed audio stream, the walls and the end screens.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { replicaPageSuite } from '../support/replica-browser';
import { passcodeOf, shortIdOf } from '../../sandbox/teams/links';

const WAIT = { timeout: 10_000 };

describe('Microsoft Teams replica (Chromium, real host names)', function () {
  this.timeout(40_000);
  const suite = replicaPageSuite({ platform: 'tm', replica: 'teams' });
  const { pages, meeting: teams } = suite;

  /**
   * A page in its own context. The launcher's msteams: deep link would open Chromium's "Open xdg-open?"
   * dialog, which takes the keyboard from the next page; the bot's browser lets Teams' pages open it
   * without asking, and nothing opens (bot-runtime/browser/app-links.ts): typing the name works below.
   */
  const open = (url: string, status = 200): Promise<Page> => pages.open(url, { status });

  const bodyText = (page: Page) => page.evaluate('document.body.innerText') as Promise<string>;
  const waitForText = (page: Page, text: string) => page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, WAIT);
  const count = (page: Page, selector: string) => page.$$eval(selector, (els) => els.length);
  const botOf = async (meetingId: string) => (await suite.sandbox.client.getMeeting(meetingId)).participants.find((p) => p.kind === 'browser')!;

  /** From a link through the launcher to the pre-join. */
  const prejoin = async (url: string): Promise<Page> => {
    const page = await open(url);
    const launcher = await page.$('button[aria-label="Join meeting from this browser"]');
    if (launcher) await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), launcher.click()]);
    await page.waitForSelector('input[data-tid="prejoin-display-name-input"]', WAIT);
    return page;
  };

  /** Types the name, turns camera and microphone off, clicks Join now (and the AV-confirm modal's button when it comes). */
  const join = async (page: Page, name = 'Rec Bot') => {
    await page.type('input[data-tid="prejoin-display-name-input"]', name);
    await page.click('[data-tid="toggle-video"]');
    await page.click('[data-tid="toggle-mute"]');
    await page.click('[data-tid="prejoin-join-button"]');
  };
  const continueWithoutAv = async (page: Page) => {
    const button = await page.waitForSelector('xpath/.//div[@role="dialog"]//button[text()="Continue without audio or video"]', WAIT);
    await button!.click();
  };
  const inCall = async (m: { meeting_id: string; url: string }, name = 'Rec Bot') => {
    const page = await prejoin(m.url);
    await join(page, name);
    await continueWithoutAv(page);
    await page.waitForSelector('button#hangup-button', WAIT);
    return page;
  };

  it('serves every link shape of 3.1; the launcher offers the browser and tries the msteams: deep link; bad links say the URL is incorrect', async () => {
    const m = await teams();
    const id = m.meeting_id;
    assert.equal(m.replica, 'teams');
    assert.match(m.url, new RegExp(`^https://teams\\.microsoft\\.com/l/meetup-join/19%3ameeting_${id}%40thread\\.v2/0\\?context=%7b%22Tid%22%3a%22[0-9a-f-]{36}%22%2c%22Oid%22%3a%22[0-9a-f-]{36}%22%7d$`));
    const short = `/meet/${shortIdOf(id)}?p=${passcodeOf(id)}`;
    for (const [link, url] of [
      ['meet', `https://teams.microsoft.com${short}`],
      ['live', `https://teams.live.com${short}`],
      ['cloud', `https://teams.cloud.microsoft${short}`],
    ] as const) {
      const other = await teams({ link });
      assert.equal(other.url, url.replace(id, other.meeting_id).replace(shortIdOf(id), shortIdOf(other.meeting_id)).replace(passcodeOf(id), passcodeOf(other.meeting_id)), link);
    }
    assert.match((await teams({ link: 'light' })).url, /^https:\/\/teams\.microsoft\.com\/light-meetings\/launch\?anon=true&lightExperience=true&coords=/);

    const launcher = await open(m.url);
    const button = await launcher.$eval('button[aria-label="Join meeting from this browser"]', (b) => b.textContent);
    assert.equal(button, 'Continue on this browser');
    assert.match(await launcher.$eval('iframe#teamsLauncher', (f) => f.getAttribute('src') ?? ''), /^msteams:\/l\/meetup-join\//);
    for (const host of ['teams.microsoft.com', 'teams.live.com', 'teams.cloud.microsoft']) {
      const viaShort = await open(`https://${host}${short}`);
      assert.equal(await count(viaShort, 'button[aria-label="Join meeting from this browser"]'), 1, `${host} short link`);
    }
    const wrongPasscode = await open(`https://teams.live.com/meet/${shortIdOf(id)}?p=nope`, 404);
    assert.match(await bodyText(wrongPasscode), /Looks like the meeting URL is incorrect/);
    const unknown = await open('https://teams.microsoft.com/l/meetup-join/19%3ameeting_nothing%40thread.v2/0', 404);
    assert.match(await bodyText(unknown), /Looks like the meeting URL is incorrect/);
    const login = await open('https://login.microsoftonline.com/common/oauth2/authorize');
    assert.equal(await count(login, 'input[name="loginfmt"]'), 1);
    assert.equal(suite.sandbox.registry.find(id, 'tm'), null, 'the sandbox tm host does not serve replica meetings');
  });

  it('pre-join: name input, role=switch camera and microphone that flip, the audio radios, Join now enabled by a name, Cancel', async () => {
    const m = await teams();
    const page = await prejoin(m.url);
    assert.match(page.url(), /^https:\/\/teams\.microsoft\.com\/v2\/\?meetingjoin=true#\/l\/meetup-join\/.*&anon=true$/, 'the launcher continues in the web client as a guest');
    assert.equal(await page.$eval('input[data-tid="prejoin-display-name-input"]', (e) => e.getAttribute('placeholder')), 'Type your name');
    const switches = () =>
      page.$$eval('input[role="switch"]', (els) => els.map((e) => [e.getAttribute('data-tid'), (e as HTMLInputElement).checked, e.getAttribute('aria-checked'), e.getAttribute('title')]));
    assert.deepEqual(await switches(), [
      ['toggle-video', true, 'true', 'Turn camera off'],
      ['toggle-mute', true, 'true', 'Mute mic'],
    ]);
    await page.click('[data-tid="toggle-video"]');
    await page.click('[data-tid="toggle-mute"]');
    assert.deepEqual(await switches(), [
      ['toggle-video', false, 'false', 'Turn camera on'],
      ['toggle-mute', false, 'false', 'Unmute mic'],
    ]);
    assert.deepEqual(await page.$$eval('[role="radio"]', (els) => els.map((e) => [e.textContent, e.getAttribute('aria-checked')])), [
      ['Computer audio', 'true'],
      ['Don\u2019t use audio', 'false'],
    ]);
    const joinDisabled = () => page.$eval('[data-tid="prejoin-join-button"]', (b) => [b.textContent, (b as HTMLButtonElement).disabled]);
    assert.deepEqual(await joinDisabled(), ['Join now', true]);
    assert.equal(await page.$eval('[data-tid="prejoin-cancel-button"]', (b) => b.textContent), 'Cancel');
    await page.type('input[data-tid="prejoin-display-name-input"]', 'R');
    assert.deepEqual(await joinDisabled(), ['Join now', false]);
    assert.equal((await botOf(m.meeting_id)).state, 'prejoin', 'the web client registered the page');
  });

  it('a web-client link without anon=true goes on to the light-meetings flow (Vexa #226); so does a short link when Teams redirects it', async () => {
    const m = await teams({ short_link: 'light' });
    const viaV2 = await open(m.url.replace('/l/meetup-join/', '/v2/?meetingjoin=true#/l/meetup-join/'));
    await viaV2.waitForSelector('input[data-tid="prejoin-display-name-input"]', WAIT);
    assert.match(viaV2.url(), /^https:\/\/teams\.microsoft\.com\/light-meetings\/launch\?anon=true&lightExperience=true&coords=/);
    const short = await open(`https://teams.live.com/meet/${shortIdOf(m.meeting_id)}?p=${passcodeOf(m.meeting_id)}`);
    await short.waitForSelector('input[data-tid="prejoin-display-name-input"]', WAIT);
    assert.match(short.url(), /^https:\/\/teams\.live\.com\/light-meetings\/launch\?anon=true&lightExperience=true&coords=/);
  });

  it('the AV-confirm modal after Join now, the pre-join left behind it; then the lobby with its disabled join button and Cancel', async () => {
    const m = await teams();
    const page = await prejoin(m.url);
    await join(page);
    await page.waitForSelector('[role="dialog"][aria-modal="true"]', WAIT);
    assert.match(await bodyText(page), /Are you sure you don.t want audio or video\?/);
    assert.equal(await count(page, '[data-tid="prejoin-join-button"]'), 1, '"Join now" stays behind the modal');
    assert.equal((await botOf(m.meeting_id)).state, 'prejoin', 'not asked yet');
    await continueWithoutAv(page);
    await waitForText(page, 'Hi, Rec Bot. Someone will let you in when the meeting starts.');
    assert.equal(await page.$eval('[data-tid="prejoin-join-button"]', (b) => (b as HTMLButtonElement).disabled), true);
    assert.equal(await page.$eval('[data-tid="prejoin-cancel-button"]', (b) => (b as HTMLButtonElement).disabled), false);
    const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
    assert.deepEqual([bot.name, bot.microphone, bot.camera], ['Rec Bot', false, false]);
    await page.click('[data-tid="prejoin-cancel-button"]');
    await suite.sandbox.client.waitForParticipant(m.meeting_id, 'left', 5000);
  });

  it('the AV-confirm modal before the pre-join', async () => {
    const m = await teams({ av_confirm: 'before_prejoin' });
    const page = await open(m.url);
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('button[aria-label="Join meeting from this browser"]')]);
    await continueWithoutAv(page);
    await page.waitForSelector('input[data-tid="prejoin-display-name-input"]', WAIT);
    await join(page);
    await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
  });

  it('the lobby wordings of 3.3', async () => {
    const wordings = [
      ['shortly', 'Someone will let you in shortly.'],
      ['soon', 'Someone will let you in soon.'],
      ['waiting_for_someone', 'Waiting for someone to let you in'],
      ['waiting_to_be_admitted', 'Waiting to be admitted\u2026'],
    ] as const;
    await Promise.all(
      wordings.map(async ([wording, text]) => {
        const m = await teams({ lobby_wording: wording, av_confirm: 'none' });
        const page = await prejoin(m.url);
        await join(page);
        await waitForText(page, text);
      }),
    );
  });

  it('in the call: one hang-up button with every id, the toolbar, tiles named by data-tid, a passing alert toast, the view menu', async () => {
    const m = await teams({ lobby: false });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const page = await inCall(m);
    assert.equal(await count(page, 'button#hangup-button[data-tid="hangup-main-btn"][data-inp="hangup-button"][aria-label="Leave"]'), 1);
    for (const selector of ['#raisehands-button', '#chat-button', '[data-tid="roster-button"]', '#callingButtons-showMoreBtn', 'button[aria-label="React"]', 'button[aria-label="Unmute mic"]', 'button[aria-label="Turn camera on"]']) {
      assert.equal(await count(page, selector), 1, selector);
    }
    assert.equal(await page.$eval('#raisehands-button', (b) => b.textContent), 'Raise');
    const tiles = () => page.$$eval('[data-stream-type="Video"]', (els) => els.map((e) => [e.getAttribute('data-tid'), e.querySelectorAll('[data-tid="voice-level-stream-outline"]').length]));
    assert.deepEqual(await tiles(), [
      ['Alice', 1],
      ['Rec Bot (Unverified)', 1],
    ]);
    await page.waitForSelector('[role="alert"]', WAIT);
    assert.match(await page.$eval('[role="alert"]', (e) => e.textContent ?? ''), /camera and mic are off/);
    await page.waitForFunction(`!document.querySelector('[role="alert"]')`, WAIT);
    assert.equal((await botOf(m.meeting_id)).state, 'in_call', 'the toast is no removal');

    await page.click('#view-mode-button');
    await page.click('#SpeakerView-button');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.some((p) => p.layout === 'Speaker'), 5000, 'the layout');
    assert.deepEqual(
      await page.$$eval('[data-stream-type="Video"]', (els) => els.map((e) => getComputedStyle(e).display !== 'none')),
      [true, false],
      "Speaker shows one participant's tile",
    );
    await page.click('#view-mode-button');
    await page.click('#MixedGrid-button');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.some((p) => p.layout === 'Gallery'), 5000, 'the layout');
    await suite.sandbox.client.simulatedLeave(m.meeting_id, alice.participant_id);
    await page.waitForFunction(`document.querySelectorAll('[data-stream-type="Video"]').length === 1`, WAIT);
  });

  it('chat: the rail from #chat-button, rows with the author on a group\u2019s first row, the CKEditor-like composer (Enter and send), the disabled placeholder', async () => {
    const m = await teams({ lobby: false });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const page = await inCall(m);
    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Hello bot');
    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Are you there?');
    assert.equal(await count(page, '[data-tid="chat-pane-message"]'), 0, 'messages exist only while the rail is open');
    await page.click('#chat-button');
    await page.waitForFunction(`document.querySelectorAll('[data-tid="chat-pane-message"]').length === 2`, WAIT);
    const composer = 'div[data-tid="ckeditor"][role="textbox"][aria-label="Type a message"][contenteditable="true"]';
    await page.click(composer);
    await page.keyboard.type('Hello Alice');
    await page.keyboard.press('Enter');
    await page.type(composer, 'Second');
    await page.click('button[data-tid="sendMessageCommands-send"]');
    await page.waitForFunction(`document.querySelectorAll('[data-tid="chat-pane-message"]').length === 4`, WAIT);
    const rows = await page.$$eval('[data-tid="chat-pane-list"] [data-tid="chat-pane-message"]', (els) =>
      els.map((e) => [e.querySelector('[data-tid="message-author-name"]')?.textContent ?? null, e.querySelector('[data-tid="messageBodyContent"]')?.textContent]),
    );
    assert.deepEqual(rows, [
      ['Alice', 'Hello bot'],
      [null, 'Are you there?'],
      ['Rec Bot (Unverified)', 'Hello Alice'],
      [null, 'Second'],
    ]);
    assert.deepEqual((await suite.sandbox.client.getMeeting(m.meeting_id)).messages.map((x) => x.text), ['Hello bot', 'Are you there?', 'Hello Alice', 'Second']);

    const off = await teams({ lobby: false, chat_enabled: false });
    const offPage = await inCall(off);
    await offPage.click('#chat-button');
    await offPage.waitForSelector('[data-tid="compose-disabled-placeholder-text"]', WAIT);
    assert.equal(await count(offPage, '[data-tid="ckeditor"]'), 0);
  });

  it('audio: one element with one live stream carries every speaker, overlapping speech too; the speakers\u2019 outlines glow blue', async () => {
    const m = await teams({ lobby: false });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const bob = await suite.sandbox.client.addSimulated(m.meeting_id, 'Bob', 'en+m3');
    const page = await inCall(m);
    const live = `Array.from(document.querySelectorAll('audio')).filter((a) => a.autoplay && a.srcObject instanceof MediaStream && a.srcObject.getAudioTracks().length === 1 && a.srcObject.getAudioTracks()[0].readyState === 'live').length`;
    assert.equal(await page.evaluate(live), 1, 'one audio element');
    assert.equal(await count(page, 'audio'), 1);
    await page.evaluate(`(() => {
      const ctx = new AudioContext();
      const an = ctx.createAnalyser();
      ctx.createMediaStreamSource(document.querySelector('audio').srcObject).connect(an);
      const buf = new Float32Array(an.fftSize);
      window.__loud = 0;
      setInterval(() => { an.getFloatTimeDomainData(buf); if (buf.some((x) => Math.abs(x) > 0.01)) window.__loud++; }, 20);
    })()`);
    const both = await Promise.all([
      suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'We speak at the same time about the quarterly plan, the budget and the hiring plan.'),
      suite.sandbox.client.speak(m.meeting_id, bob.participant_id, 'Yes, we both speak now, about the servers that were upgraded last night and the release.'),
    ]);
    await page.waitForFunction(`document.querySelectorAll('[data-tid="voice-level-stream-outline"].vdi-frame-occlusion').length === 2`, WAIT);
    const glow = await page.$eval('[data-tid="Alice"] [data-tid="voice-level-stream-outline"]', (o) => {
      const before = getComputedStyle(o, '::before');
      return [before.opacity, before.borderTopColor];
    });
    assert.deepEqual(glow, ['1', 'rgb(91, 95, 199)']);
    // the mix is heard at the page's pace: read until it carried the speech (bounded)
    await page.waitForFunction('window.__loud > 0', WAIT).catch(() => undefined);
    assert.ok(((await page.evaluate('window.__loud')) as number) > 0, 'the mix carries the speech');
    assert.equal(await count(page, 'audio'), 1, 'still one element while two speak');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.speaking.length === 0, Math.max(...both.map((b) => b.duration_seconds)) * 1000 + WAIT.timeout, 'the speech to end');
    await page.waitForFunction(`document.querySelectorAll('.vdi-frame-occlusion').length === 0`, WAIT).catch(() => undefined);
    assert.equal(await count(page, '.vdi-frame-occlusion'), 0, 'no glow once the speech ended');
  });

  it('deny: "Sorry, but you were denied access to the meeting." on the retry screen with Dismiss', async () => {
    const m = await teams({ av_confirm: 'none' });
    const page = await prejoin(m.url);
    await join(page);
    const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
    await suite.sandbox.client.deny(m.meeting_id, bot.participant_id);
    await page.waitForSelector('#calling-retry-screen-title', WAIT);
    assert.equal(await page.$eval('#calling-retry-screen-title', (e) => e.textContent), 'Sorry, but you were denied access to the meeting.');
    assert.equal(await count(page, '[data-tid="calling-retry-cancelbutton"]'), 1);
  });

  it('removed (retry screen with Rejoin and Dismiss), ended, and the own leave by the hang-up button', async () => {
    const m = await teams({ lobby: false });
    const [removed, ended] = [await inCall(m, 'One'), await inCall(m, 'Two')];
    const one = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === 'One')!;
    await suite.sandbox.client.remove(m.meeting_id, one.participant_id);
    await removed.waitForSelector('#calling-retry-screen-title', WAIT);
    assert.equal(await removed.$eval('#calling-retry-screen-title', (e) => e.textContent), 'You\u2019ve been removed from this meeting');
    assert.match(await bodyText(removed), /Rejoin[\s\S]*Dismiss/);
    await suite.sandbox.client.end(m.meeting_id);
    await waitForText(ended, 'This meeting has ended.');

    const other = await teams({ lobby: false });
    const leaving = await inCall(other);
    await leaving.click('button#hangup-button');
    await waitForText(leaving, 'You left the meeting.');
    assert.deepEqual([(await botOf(other.meeting_id)).state, (await botOf(other.meeting_id)).end_reason], ['left', 'left']);
  });

  it('walls: the sign-in modal; links sent to the Microsoft login host; the captcha after Join; a page of no known state', async () => {
    const signIn = await open((await teams({ wall: 'sign_in' })).url);
    await Promise.all([signIn.waitForNavigation({ waitUntil: 'domcontentloaded' }), signIn.click('button[aria-label="Join meeting from this browser"]')]);
    await waitForText(signIn, 'We need to verify your info before you can join');

    const redirected = await teams({ wall: 'login_redirect' });
    const login = await open(redirected.url);
    assert.equal(new URL(login.url()).hostname, 'login.microsoftonline.com');
    assert.equal(await count(login, 'input[name="loginfmt"]'), 1);
    const viaWebClient = await open(redirected.url.replace('/l/meetup-join/', '/v2/?meetingjoin=true#/l/meetup-join/') + '&anon=true');
    await viaWebClient.waitForSelector('input[name="loginfmt"]', WAIT);
    assert.equal(new URL(viaWebClient.url()).hostname, 'login.microsoftonline.com', 'the web client sends the guest to sign in too');

    const captcha = await teams({ wall: 'captcha', av_confirm: 'none' });
    const page = await prejoin(captcha.url);
    await join(page);
    await waitForText(page, 'Verify you\u2019re a real person');
    assert.equal((await botOf(captcha.meeting_id)).state, 'prejoin', 'the request never reached the meeting');

    const unrecognised = await open((await teams({ wall: 'unrecognised' })).url);
    await Promise.all([unrecognised.waitForNavigation({ waitUntil: 'domcontentloaded' }), unrecognised.click('button[aria-label="Join meeting from this browser"]')]);
    await waitForText(unrecognised, 'no state of the Teams contract');
    assert.equal(await count(unrecognised, 'input, button'), 0, 'nothing to join with');
  });

  it('refuses bad settings naming the field', async () => {
    for (const [body, field] of [
      [{ av_confirm: 'sometimes' }, 'av_confirm'],
      [{ wall: 'moat' }, 'wall'],
      [{ link: 'ftp' }, 'link'],
      [{ lobby_wording: 'let_in' }, 'lobby_wording'],
      [{ short_link: 1 }, 'short_link'],
      [{ device_toggles: 'buttons' }, 'device_toggles'],
      [{ roster_only: 1 }, 'roster_only'],
      [{ denied_wording: 'nope' }, 'denied_wording'],
      [{ sign_in_wording: 'nope' }, 'sign_in_wording'],
    ] as const) {
      await assert.rejects(teams(body as Partial<CreateMeetingRequest>), new RegExp(`400.*${field}|${field}.*must be (one of|a boolean)`));
    }
    await assert.rejects(suite.sandbox.client.createMeeting({ platform: 'mt', replica: 'teams' }), /teams replica is a tm flavour/);
  });
});
