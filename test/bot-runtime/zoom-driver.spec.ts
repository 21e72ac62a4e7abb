/**
 * The Zoom web client driver against small page fixtures (fixtures/zoom-pages.ts), in a real
 * Chromium: every text variant of the research note is recognised as its screen, traps are not, and
 * the driver's reads and actions work on Zoom's structure (Join enabled only by real keys, the
 * prompts, computer audio, panes, chat, View, the leave dialog).
 */
import assert from 'node:assert/strict';
import { speakersOf } from '../../bot-runtime/browser/speakers';
import { ZoomDriver } from '../../bot-runtime/drivers/zoom/zoom-driver';
import { callWithPanes, inCall, interactiveCall, interactiveReactForm, zoomPageFixtures } from './fixtures/zoom-pages';
import { driverOnFixturePages, itRecognisesEach } from './fixtures/page-fixture';
import { readUntil } from '../support/read-until';
import { passcodeForm, passcodeFormUrl, webAudioCall, zoomVariantFixtures } from './fixtures/zoom-variants';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Zoom web client driver on page fixtures (Chromium)', function () {
  this.timeout(30_000);
  const fx = driverOnFixturePages((page, log) => new ZoomDriver(page, log));

  describe('recognises each screen, in the order removal and end, wall, waiting, admitted', () => {
    itRecognisesEach(zoomPageFixtures, fx);
  });

  describe('recognises the wordings, lookalikes, page structures and navigations of 2025-2026', () => {
    itRecognisesEach(zoomVariantFixtures, fx);
  });

  it('reads the participants pane (suffixes off, "(me)" is the bot, same names apart), the chat with senders and their ids', async () => {
    await fx.show(callWithPanes);
    const snap = await fx.driver.read(0);
    assert.equal(snap.screen, 'in_call');
    assert.deepEqual(snap.participants, [
      { id: 'Alice', name: 'Alice' },
      { id: 'Rec Bot', name: 'Rec Bot' },
      { id: 'Bob Stone', name: 'Bob Stone' },
      { id: 'Bob Stone (2)', name: 'Bob Stone' },
    ]);
    assert.equal(snap.selfId, 'Rec Bot');
    assert.deepEqual(snap.chat, [
      { sender_name: 'Alice', participant_id: 'Alice', text: 'Welcome, bot' },
      { sender_name: 'Alice', participant_id: 'Alice', text: 'Second line' },
      { sender_name: 'Rec Bot', participant_id: 'Rec Bot', text: 'Hello, I record' },
    ]);
    assert.deepEqual((await fx.driver.read(2)).chat.map((m) => m.text), ['Hello, I record'], 'only the messages after the index');
    assert.equal(await fx.driver.chat.countOwn('Rec Bot', 'Rec Bot', 'Hello, I record'), 1);
    assert.equal(await fx.driver.chat.countOwn('Rec Bot', 'Rec Bot', 'Welcome, bot'), 0);
    assert.equal(snap.chatDisabled, false);
    assert.match(fx.log.text(), /zoom: name found by \.participants-item__display-name/);
    assert.match(fx.log.text(), /zoom: sender found by \.chat-item__sender/);
  });

  it("the main tile's name is the speaker only while the meeting audio carries sound, once two reads agree", async () => {
    await fx.show(callWithPanes);
    assert.equal((await fx.driver.read(0)).activeSpeaker, null, 'no sound: Zoom keeps the last speaker on the tile');
    await fx.page.evaluate(`(() => {
      const ctx = new AudioContext();
      const osc = ctx.createOscillator();
      const dest = ctx.createMediaStreamDestination();
      osc.connect(dest);
      osc.start();
      const a = document.createElement('audio');
      a.autoplay = true;
      a.srcObject = dest.stream;
      document.body.appendChild(a);
      window.__osc = osc;
    })()`);
    // the bot's speakers play the tone, heard outside the page
    await readUntil(async () => speakersOf(fx.page)!.msSinceSound(), (ms) => ms !== null && ms < 200, { timeoutMs: 10_000, everyMs: 50 });
    const first = await fx.driver.read(0);
    const second = await fx.driver.read(0);
    assert.deepEqual([first.activeSpeaker, second.activeSpeaker], [null, 'Alice'], 'two reads agree');
    assert.match(fx.log.text(), /zoom: speaker found by \.single-main-container__video-frame \.video-avatar__avatar-footer > span/);
    await fx.page.evaluate('window.__osc.stop()');
    const silent = await readUntil(() => fx.driver.read(0), (read) => read.activeSpeaker === null, { timeoutMs: 10_000, everyMs: 100 });
    assert.equal(silent.activeSpeaker, null, 'silence again');
  });

  it('joins: allows both media prompts, types the name with real keys (Join was disabled), mutes and stops video, clicks Join', async () => {
    await fx.show(interactiveReactForm);
    await fx.driver.join('Rec Bot');
    assert.equal(await fx.page.evaluate('window.allowed'), 2);
    assert.equal(await fx.page.evaluate('window.asked'), 'Rec Bot');
    assert.deepEqual(await fx.page.$$eval('#preview-audio-control-button, #preview-video-control-button', (bs) => bs.map((b) => b.getAttribute('aria-label'))), ['Unmute', 'Start Video']);
    const text = fx.log.text();
    assert.match(text, /media prompt "Allow" clicked away/);
    assert.match(text, /name input found by #input-for-name/);
    assert.match(text, /microphone toggle found by #preview-audio-control-button\[aria-label="Mute"\]/);
    assert.match(text, /join button found by button\.preview-join-button:not\(\.disabled\)/);
  });

  it('joins with its own picture: the video left on, the microphone muted', async () => {
    await fx.show(interactiveReactForm);
    await fx.driver.join('Rec Bot', { microphone: false, camera: true });
    assert.deepEqual(await fx.page.$$eval('#preview-audio-control-button, #preview-video-control-button', (bs) => bs.map((b) => b.getAttribute('aria-label'))), ['Unmute', 'Stop Video']);
    assert.match(fx.log.text(), /zoom: camera already on/);
  });

  it('a Join that never enables fails to join, saying so', async () => {
    await fx.show('<input id="input-for-name" type="text"><button class="preview-join-button disabled" onclick="window.asked = 1">Join</button>');
    await assert.rejects(fx.driver.join('Rec Bot'), /the join button stayed disabled/);
    assert.equal(await fx.page.evaluate('window.asked'), undefined);
  });

  it('a form asking for a passcode the link does not carry fails at once', async () => {
    await fx.show('<input id="input-for-name" type="text"><input type="password" placeholder="Meeting Passcode"><button class="preview-join-button disabled">Join</button>');
    await assert.rejects(fx.driver.join('Rec Bot'), /passcode/);
  });

  it('the classic form: accepts OneTrust first, then types into #inputname and clicks #joinBtn', async () => {
    await fx.show(`<form><input id="inputname" placeholder="Your Name"><button id="joinBtn" type="button" onclick="window.asked = document.getElementById('inputname').value">Join</button></form>
      <div id="onetrust-consent-sdk"><div style="position:fixed;inset:0" class="onetrust-pc-dark-filter"></div><div id="onetrust-banner-sdk" style="position:fixed;bottom:0;z-index:2"><button id="onetrust-accept-btn-handler" onclick="document.getElementById('onetrust-consent-sdk').remove()">Accept Cookies</button></div></div>`);
    await fx.driver.join('Rec Bot');
    assert.equal(await fx.page.evaluate('window.asked'), 'Rec Bot');
    assert.match(fx.log.text(), /consent layer "#onetrust-accept-btn-handler" clicked away/);
  });

  it('prepares the call: popups away, computer audio joined, the microphone muted again, the participants pane and the chat opened', async () => {
    await fx.show(interactiveCall);
    await fx.driver.prepareCall();
    assert.equal(await fx.page.$('.zm-modal'), null, 'the AI Companion notice is gone');
    assert.equal(await fx.page.evaluate('window.microphone'), false, 'joined audio, then muted');
    assert.ok(await fx.page.$('#participants-ul'), 'participants pane open');
    assert.ok(await fx.page.$('div.tiptap.ProseMirror[contenteditable]'), 'chat open');
    const text = fx.log.text();
    assert.match(text, /popup "OK" clicked away/);
    assert.match(text, /join audio found by \.ReactModal__Content button "Join Audio by Computer"/);
    assert.match(text, /footer microphone toggle found by button\[aria-label="mute my microphone"\]/);
    assert.match(text, /chat panel toggle found by button\[aria-label="open the chat panel"\]/);

    await fx.driver.chat.post('Hello from the bot');
    assert.deepEqual(await fx.page.evaluate('window.sent'), ['Hello from the bot']);

    await fx.driver.setLayout('gallery_view');
    assert.equal(await fx.page.evaluate('window.layout'), 'Gallery View');
    await fx.driver.setLayout('speaker_view');
    assert.equal(await fx.page.evaluate('window.layout'), 'Speaker View');
    await fx.driver.setLayout('audio_only');
    assert.equal(await fx.page.evaluate('window.layout'), 'Speaker View', 'audio_only leaves the layout');

    assert.equal(await fx.driver.leaveCall(), true);
    assert.equal(await fx.page.evaluate('window.left'), true, 'the danger button was clicked (Enter would have cancelled)');
  });

  it("never clicks an end modal's OK away as a popup (it shares .zm-modal and OK)", async () => {
    await fx.show('<div class="meeting-app"><div class="zm-modal"><div class="zm-modal-body-title">This meeting has been ended by host</div><button onclick="window.clicked = true">OK</button></div></div>');
    await fx.driver.prepareCall();
    assert.equal(await fx.page.evaluate('window.clicked'), undefined);
    assert.equal((await fx.driver.read(0)).screen, 'ended');
  });

  it('keeps chat text and names out of the diagnostic HTML', async () => {
    await fx.show(callWithPanes);
    const html = await fx.driver.redactedHtml(['Rec Bot']);
    for (const secret of ['Welcome, bot', 'Second line', 'Hello, I record', 'Alice', 'Bob Stone', 'Rec Bot']) assert.ok(!html.includes(secret), `${secret} is gone`);
    assert.match(html, /class="new-chat-message__content">\[chat\]</);
    assert.match(html, /\[name\]/);
  });

  it('a passcode field although the link carries the passcode: filled from the link, then Join [MB zoom.ts]', async () => {
    await fx.show(passcodeForm, passcodeFormUrl);
    await fx.driver.join('Rec Bot');
    assert.deepEqual(await fx.page.evaluate('window.asked'), { name: 'Rec Bot', passcode: 'Tk9u3x.1' });
    assert.match(fx.log.text(), /a passcode field although the link carries one: filled from the link/);
  });

  it('the same form on a link without a passcode fails at once, saying so', async () => {
    await fx.show(passcodeForm, 'https://app.zoom.us/wc/81234567890/join');
    await assert.rejects(fx.driver.join('Rec Bot'), /asks for a passcode the link does not carry/);
  });

  it('hears the meeting played through the Web Audio API, with no <audio> element (Vexa #318): the main tile speaks while it sounds', async () => {
    await fx.show(webAudioCall);
    await fx.driver.prepareCall();
    assert.equal(await fx.page.evaluate('document.querySelectorAll("audio, video").length'), 0, 'nothing an <audio> monitor could hear');
    await fx.page.evaluate('window.speak(true)');
    const deadline = Date.now() + 5000;
    let speaker: string | null = null;
    while (speaker === null && Date.now() < deadline) {
      speaker = (await fx.driver.read(0)).activeSpeaker;
      await sleep(150);
    }
    assert.equal(speaker, 'Alice');
    await fx.page.evaluate('window.speak(false)');
    await sleep(1200);
    assert.equal((await fx.driver.read(0)).activeSpeaker, null, 'silence again');
  });

  it('explains an unrecognised page: what it believed, and each rule it checked with what held, was missing or vetoed it', async () => {
    await fx.show(inCall());
    await fx.driver.read(0);
    // the footer's Leave is gone, an unknown dialog and the spinner's words inside a frame
    await fx.show('<div class="meeting-app"><div role="dialog">Something new</div></div>');
    const snap = await fx.driver.read(0);
    assert.equal(snap.screen, 'unknown');
    const e = await fx.driver.explain();
    assert.equal(e.believed?.screen, 'in_call');
    assert.match(e.believed?.evidence ?? '', /^in_call: selector /);
    assert.equal(e.admitted, true);
    assert.deepEqual(e.places.map((p) => p.where), ['main document']);
    const verdicts = e.places[0]!.verdicts;
    assert.ok(verdicts.some((v) => v.rule === 'in_call' && v.matched === null && !v.outOfPhase));
    assert.ok(verdicts.some((v) => v.rule === 'wall (blocked)' && v.outOfPhase), 'the before-call redirect rule is out of phase');
  });
});
