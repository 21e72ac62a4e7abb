/**
 * The Google Meet driver against small page fixtures (fixtures/meet-pages.ts), in a real Chromium:
 * every text variant of the research note is recognised as its screen, traps are not, and the
 * driver's reads and actions work on Meet's structure.
 */
import assert from 'node:assert/strict';
import { MeetDriver } from '../../bot-runtime/drivers/google-meet/meet-driver';
import { callWithChat, interactivePrejoin, meetPageFixtures } from './fixtures/meet-pages';
import { driverOnFixturePages, itRecognisesEach } from './fixtures/page-fixture';
import { controlledComposer, meetVariantFixtures, spotlightCall } from './fixtures/meet-variants';

describe('Google Meet driver on page fixtures (Chromium)', function () {
  this.timeout(30_000);
  const fx = driverOnFixturePages((page, log) => new MeetDriver(page, log));

  describe('recognises each screen, in the order denial, wall, waiting, admitted', () => {
    itRecognisesEach(meetPageFixtures, fx);
  });

  describe('recognises the wordings, lookalikes, page structures and navigations of 2025-2026', () => {
    itRecognisesEach(meetVariantFixtures, fx);
  });

  it('reads participants (not the effects tile, each once), the bot, the lit speaker and the chat with senders', async () => {
    await fx.show(callWithChat);
    const snap = await fx.driver.read(0);
    assert.equal(snap.screen, 'in_call');
    assert.deepEqual(snap.participants, [
      { id: 'p-me', name: 'Rec Bot' },
      { id: 'p-alice', name: 'Alice' },
      { id: 'p-bob', name: 'Bob Stone' },
    ]);
    assert.equal(snap.selfId, 'p-me');
    assert.equal(snap.activeSpeaker, 'Alice');
    assert.deepEqual(snap.chat, [
      { sender_name: 'Alice', participant_id: 'p-alice', text: 'Welcome, bot' },
      { sender_name: 'Alice', participant_id: 'p-alice', text: 'Second line' },
      { sender_name: 'Rec Bot', participant_id: 'p-me', text: 'Hello, I record' },
    ]);
    assert.deepEqual((await fx.driver.read(2)).chat.map((m) => m.text), ['Hello, I record'], 'only the messages after the index');
    assert.equal(await fx.driver.chat.countOwn('p-me', 'Rec Bot', 'Hello, I record'), 1);
    assert.equal(await fx.driver.chat.countOwn('p-me', 'Rec Bot', 'Welcome, bot'), 0);
    assert.equal(snap.chatDisabled, false);
    assert.match(fx.log.text(), /google-meet: name found by span\.notranslate/);
    assert.match(fx.log.text(), /google-meet: speaking found by \[data-audio-level\]/);
    // without the semantic level, a known speaking class
    await fx.page.evaluate(`document.querySelectorAll('[data-audio-level]').forEach((e) => e.removeAttribute('data-audio-level'))`);
    assert.equal((await fx.driver.read(0)).activeSpeaker, 'Alice');
    assert.match(fx.log.text(), /google-meet: speaking found by \.Oaajhc/);
  });

  it('joins: types the name, turns microphone and camera off, waits for the button to enable, clicks it', async () => {
    await fx.show(interactivePrejoin);
    await fx.driver.join('Rec Bot');
    assert.equal(await fx.page.evaluate('window.asked'), 'Rec Bot');
    assert.ok(await fx.page.$('[aria-label="Turn on microphone"]'), 'microphone off');
    assert.ok(await fx.page.$('[aria-label="Turn on camera"]'), 'camera off');
    const text = fx.log.text();
    assert.match(text, /name input found by input\[type="text"\]\[aria-label="Your name"\]/);
    assert.match(text, /microphone toggle found by div\[role="button"\]\[aria-label="Turn off microphone"\]/);
    assert.match(text, /asked to join \("Ask to join"\)/);
  });

  it('joins with its own voice: the microphone turned back on (it was off), the camera off', async () => {
    await fx.show(interactivePrejoin);
    await fx.page.click('[aria-label="Turn off microphone"]');
    await fx.driver.join('Rec Bot', { microphone: true, camera: false });
    assert.ok(await fx.page.$('[aria-label="Turn off microphone"]'), 'microphone on');
    assert.ok(await fx.page.$('[aria-label="Turn on camera"]'), 'camera off');
    assert.match(fx.log.text(), /google-meet: microphone on/);
    assert.match(fx.log.text(), /google-meet: camera off/);
  });

  it('keeps chat text and names out of the diagnostic HTML', async () => {
    await fx.show(callWithChat);
    const html = await fx.driver.redactedHtml(['Rec Bot']);
    for (const secret of ['Welcome, bot', 'Second line', 'Hello, I record', 'Alice', 'Bob Stone', 'Rec Bot']) assert.ok(!html.includes(secret), `${secret} is gone`);
    assert.match(html, /data-participant-id="p-me"/, 'the structure stays');
    assert.match(html, /class="jO4O1">\[chat\]</);
    assert.match(html, /\[name\]/);
  });

  it('a spotlight call: participants from the roster (the People panel opened for a moment, then the chat again), ids stable when a tile shows them later', async () => {
    await fx.show(spotlightCall);
    const first = await fx.driver.read(0);
    assert.equal(first.screen, 'in_call');
    assert.equal(first.activeSpeaker, 'Alice', 'the lit tile speaks');
    await waitFor(async () => (await fx.driver.read(0)).participants.length === 4, 'the roster read');
    const snap = await fx.driver.read(0);
    assert.deepEqual(
      snap.participants.map((p) => [p.id, p.name]),
      [['p-alice', 'Alice'], ['Rec Bot', 'Rec Bot'], ['Bob Stone', 'Bob Stone'], ['Carol', 'Carol']],
    );
    await waitFor(async () => (await fx.page.$('textarea[aria-label="Send a message"]')) !== null, 'the chat panel open again');
    assert.equal(await fx.page.evaluate('window.rosterOpened'), 1);
    // Bob speaks: Meet shows his tile, with its own id; he stays the participant the roster named
    await fx.page.evaluate(`document.getElementById('stage').innerHTML = '<div data-participant-id="p-bob"><span class="notranslate">Bob Stone</span><div class="lvl Oaajhc" data-audio-level="2"></div></div>'`);
    const later = await fx.driver.read(0);
    assert.equal(later.activeSpeaker, 'Bob Stone');
    assert.ok(later.participants.some((p) => p.id === 'Bob Stone' && p.name === 'Bob Stone'));
    assert.ok(!later.participants.some((p) => p.id === 'p-bob'), 'not a second Bob');
    assert.match(fx.log.text(), /google-meet: roster found by div\[role="list"\]\[aria-label="Participants"\] \[role="listitem"\]/);
  });

  it("types the chat through the editor's input path: a controlled textarea ignores a value set by script", async () => {
    await fx.show(controlledComposer);
    // the page is what it claims: a script's value and input event reach nothing
    await fx.page.evaluate(`(() => { const t = document.querySelector('textarea'); t.value = 'by script'; t.dispatchEvent(new Event('input', { bubbles: true })); t.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })); })()`);
    assert.deepEqual(await fx.page.evaluate('window.sent'), []);
    await fx.driver.chat.post('Hello from the bot\non two lines');
    assert.deepEqual(await fx.page.evaluate('window.sent'), ['Hello from the bot\non two lines']);
  });
});

const waitFor = async (check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
