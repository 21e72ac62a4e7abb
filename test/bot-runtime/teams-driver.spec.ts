/**
 * The Microsoft Teams driver against small page fixtures (fixtures/teams-pages.ts), in a real
 * Chromium: every text variant of the research note is recognised as its screen, traps are not, and
 * the driver's reads and actions work on Teams' structure (launcher, AV-confirm modal before the
 * pre-join or after the join click, switches, tiles named by `data-tid`, chat, view menu, app links).
 */
import assert from 'node:assert/strict';
import { TeamsDriver, teamsDisplayName } from '../../bot-runtime/drivers/microsoft-teams/teams-driver';
import { driverOnFixturePages, itRecognisesEach } from './fixtures/page-fixture';
import { divSwitchPrejoin, modelEditor, speakerViewCall, teamsVariantFixtures } from './fixtures/teams-variants';
import { callWithChat, interactivePrejoin, teamsPageFixtures } from './fixtures/teams-pages';

describe('Microsoft Teams driver on page fixtures (Chromium)', function () {
  this.timeout(30_000);
  const fx = driverOnFixturePages((page, log) => new TeamsDriver(page, log));

  describe('recognises each screen, in the order denial, wall, waiting, admitted', () => {
    itRecognisesEach(teamsPageFixtures, fx);
  });

  describe('recognises the wordings, lookalikes, page structures and navigations of 2025-2026', () => {
    itRecognisesEach(teamsVariantFixtures, fx);
  });

  it('strips the suffixes Teams puts after names', () => {
    assert.equal(teamsDisplayName('Rec Bot (Unverified)'), 'Rec Bot');
    assert.equal(teamsDisplayName(' Bob  Stone (Guest) '), 'Bob Stone');
    assert.equal(teamsDisplayName('Eve (External) (Unverified)'), 'Eve');
    assert.equal(teamsDisplayName('Alice'), 'Alice');
  });

  it('joins: types the name, camera and microphone off, keeps computer audio, answers the AV-confirm modal that comes after "Join now"', async () => {
    await fx.show(interactivePrejoin(false, false));
    await fx.driver.join('Rec Bot');
    assert.deepEqual(await fx.page.evaluate('window.asked'), { name: 'Rec Bot', camera: false, mic: false, audio: 'true' });
    const text = fx.log.text();
    assert.match(text, /name input found by input\[data-tid="prejoin-display-name-input"\]/);
    assert.match(text, /camera switch found by \[data-tid="toggle-video"\]/);
    assert.match(text, /microphone switch found by \[data-tid="toggle-mute"\]/);
    assert.match(text, /computer audio chosen/);
    assert.match(text, /asked to join/);
    assert.match(text, /AV-confirm modal "Continue without audio or video" clicked away/);
  });

  it('joins with its own voice and picture: camera and microphone left on', async () => {
    await fx.show(interactivePrejoin(false, false));
    await fx.driver.join('Rec Bot', { microphone: true, camera: true });
    assert.deepEqual(await fx.page.evaluate('window.asked'), { name: 'Rec Bot', camera: true, mic: true, audio: 'true' });
    assert.match(fx.log.text(), /microsoft-teams: camera already on[\s\S]*microsoft-teams: microphone already on/);
  });

  it('joins from the launcher, with the AV-confirm modal before the pre-join', async () => {
    await fx.show(interactivePrejoin(true, true));
    assert.equal((await fx.driver.read(0)).screen, 'prejoin', 'the launcher is the way in');
    await fx.driver.join('Rec Bot');
    assert.deepEqual(await fx.page.evaluate('window.asked'), { name: 'Rec Bot', camera: false, mic: false, audio: 'true' });
    const text = fx.log.text();
    assert.match(text, /launcher button found by button\[aria-label="Join meeting from this browser"\]/);
    assert.match(text, /continued on this browser/);
    assert.match(text, /AV-confirm modal "Continue without audio or video" clicked away[\s\S]*asked to join[\s\S]*AV-confirm modal/, 'the modal answered before and after the click');
  });

  it('reads participants by name without suffixes (each once), the bot, the outlined speaker and the chat with senders', async () => {
    await fx.show(interactivePrejoin(false, false));
    await fx.driver.join('Rec Bot');
    await fx.show(callWithChat);
    const snap = await fx.driver.read(0);
    assert.equal(snap.screen, 'in_call');
    assert.deepEqual(snap.participants, [
      { id: 'Rec Bot', name: 'Rec Bot' },
      { id: 'Alice', name: 'Alice' },
      { id: 'Bob Stone', name: 'Bob Stone' },
    ]);
    assert.equal(snap.selfId, 'Rec Bot', "the bot's tile is the one with its name");
    assert.equal(snap.activeSpeaker, 'Alice');
    assert.deepEqual(snap.chat, [
      { sender_name: 'Alice', participant_id: 'Alice', text: 'Welcome, bot' },
      { sender_name: 'Alice', participant_id: 'Alice', text: 'Second line' },
      { sender_name: 'Rec Bot', participant_id: 'Rec Bot', text: 'Hello, I record' },
    ]);
    assert.deepEqual((await fx.driver.read(2)).chat.map((m) => m.text), ['Hello, I record'], 'only the messages after the index');
    assert.equal(snap.chatDisabled, false);
    assert.match(fx.log.text(), /microsoft-teams: name found by @data-tid/);
    assert.match(fx.log.text(), /microsoft-teams: speaking found by \[data-tid="voice-level-stream-outline"\]\.vdi-frame-occlusion/);

    // MB's other heuristic: no class, a blue ::before border at opacity 1 on Bob's outline
    await fx.page.evaluate(`(() => {
      document.querySelectorAll('.vdi-frame-occlusion').forEach((e) => e.classList.remove('vdi-frame-occlusion'));
      const style = document.createElement('style');
      style.textContent = '[data-tid="voice-level-stream-outline"]::before { content: ""; border: 2px solid rgb(98, 100, 167); opacity: 0; } .lit::before { border-color: rgb(70, 110, 235); opacity: 1; }';
      document.head.appendChild(style);
      document.querySelector('[data-tid="Bob Stone (Guest)"] [data-tid="voice-level-stream-outline"]').classList.add('lit');
    })()`);
    assert.equal((await fx.driver.read(0)).activeSpeaker, 'Bob Stone');
    assert.match(fx.log.text(), /speaking found by \[data-tid="voice-level-stream-outline"\]::before blue border/);
    await fx.page.evaluate(`document.querySelector('.lit').classList.remove('lit')`);
    assert.equal((await fx.driver.read(0)).activeSpeaker, null, 'the purple border at opacity 0 is nobody speaking');
  });

  it('posts chat through the composer and its send button, and counts its own message', async () => {
    await fx.show(interactivePrejoin(false, false));
    await fx.driver.join('Rec Bot');
    await fx.show(callWithChat);
    await fx.driver.chat.post('Second message\nwith a new line');
    assert.equal(await fx.driver.chat.countOwn('Rec Bot', 'Rec Bot', 'Second message with a new line'), 1);
    assert.equal(await fx.driver.chat.countOwn('Rec Bot', 'Rec Bot', 'Welcome, bot'), 0);
    assert.match(fx.log.text(), /chat composer found by|send button found by/);
  });

  it('sees chat turned off by the disabled-compose placeholder [MB]', async () => {
    await fx.show(`${callWithChat}<div data-tid="compose-disabled-placeholder-text">Only some people can send messages</div>`);
    assert.equal((await fx.driver.read(0)).chatDisabled, true);
    assert.equal(await fx.driver.chat.disabled(), true);
  });

  it('picks the layout from the view menu: Speaker for speaker_view, Gallery for gallery_view', async () => {
    await fx.show(callWithChat);
    await fx.driver.setLayout('speaker_view');
    assert.equal(await fx.page.evaluate('window.layout'), 'Speaker');
    await fx.driver.setLayout('gallery_view');
    assert.equal(await fx.page.evaluate('window.layout'), 'Gallery');
    await fx.driver.setLayout('audio_only');
    assert.equal(await fx.page.evaluate('window.layout'), 'Gallery', 'audio_only leaves it');
    assert.match(fx.log.text(), /view button found by #view-mode-button/);
  });

  it('leaves by the hang-up button', async () => {
    await fx.show(`${tile}<button id="hangup-button" aria-label="Leave" onclick="document.body.innerHTML = '<p>Thanks for joining</p>'">x</button>`);
    assert.equal(await fx.driver.leaveCall(), true);
    assert.notEqual((await fx.driver.read(0)).screen, 'in_call');
  });

  it('keeps chat text and names (tile names too) out of the diagnostic HTML', async () => {
    await fx.show(callWithChat);
    const html = await fx.driver.redactedHtml(['Rec Bot']);
    for (const secret of ['Welcome, bot', 'Second line', 'Hello, I record', 'Alice', 'Bob Stone', 'Rec Bot']) assert.ok(!html.includes(secret), `${secret} is gone`);
    assert.match(html, /data-tid="hangup-main-btn"/, 'the structure stays');
    assert.match(html, /data-tid="messageBodyContent">\[chat\]</);
  });

  it("types the chat through CKEditor's input path (Shift+Enter between lines): a script's innerText is undone", async () => {
    await fx.show(modelEditor);
    await fx.page.evaluate(`document.querySelector('[data-tid=ckeditor]').innerText = 'by script'; document.querySelector('[data-tid=sendMessageCommands-send]').click()`);
    assert.deepEqual(await fx.page.evaluate('window.sent'), [], 'the page is what it claims: innerText reaches nothing');
    await fx.driver.chat.post('Second message\nwith a new line');
    assert.deepEqual(await fx.page.evaluate('window.sent'), ['Second message\nwith a new line']);
  });

  it('turns off camera and microphone toggles that are div[role="switch"] with aria-checked', async () => {
    await fx.show(divSwitchPrejoin);
    await fx.driver.join('Rec Bot');
    assert.deepEqual(await fx.page.evaluate('window.asked'), { name: 'Rec Bot', camera: 'false', mic: 'false' });
    assert.match(fx.log.text(), /camera switch found by \[data-tid="toggle-video"\]/);
  });

  it('speaker view: participants from the roster (the People pane opened for a moment, then the chat again), names without their labels', async () => {
    await fx.show(speakerViewCall);
    assert.deepEqual((await fx.driver.read(0)).participants.map((p) => p.name), ['Alice']);
    const deadline = Date.now() + 10_000;
    while ((await fx.driver.read(0)).participants.length < 3 || !(await fx.page.$('[data-tid=ckeditor]'))) {
      assert.ok(Date.now() < deadline, 'the roster read and the chat open again');
      await new Promise((r) => setTimeout(r, 100));
    }
    const snap = await fx.driver.read(0);
    assert.deepEqual(snap.participants.map((p) => [p.id, p.name]), [['Alice', 'Alice'], ['Rec Bot', 'Rec Bot'], ['Bob Stone', 'Bob Stone']]);
    assert.equal(snap.activeSpeaker, 'Alice');
    assert.match(fx.log.text(), /microsoft-teams: roster button found by \[data-tid="roster-button"\]/);
  });
});

const tile = '<div data-stream-type="Video" data-tid="Alice"></div>';
