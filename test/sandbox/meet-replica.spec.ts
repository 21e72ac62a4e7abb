/**
 * The Google Meet replica against its contract (research note 2.11), in a real Chromium that reaches
 * meet.google.com the way a bot with SANDBOX_REPLICAS does (host-resolver rules, the sandbox
 * certificate pinned). Checks the page itself, not a driver: URLs, lobby elements and traps, the
 * waiting wordings, the call's controls and tiles, chat rows, the rotating audio pool, the walls and
 * the end pages.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { replicaPageSuite } from '../support/replica-browser';

const WAIT = { timeout: 10_000 };

describe('Google Meet replica (Chromium, real host names)', function () {
  this.timeout(40_000);
  const suite = replicaPageSuite({ platform: 'mt', replica: 'meet' });
  const { pages, meeting: meet } = suite;

  const open = (url: string) => pages.open(url);

  const bodyText = (page: Page) => page.evaluate('document.body.innerText') as Promise<string>;
  const waitForText = (page: Page, text: string) => page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, WAIT);
  const count = (page: Page, selector: string) => page.$$eval(selector, (els) => els.length);

  /** Types the name with key events, turns microphone and camera off, clicks the CTA. */
  const knock = async (page: Page, name = 'Rec Bot') => {
    await page.waitForSelector('input[aria-label="Your name"]', WAIT);
    await page.type('input[aria-label="Your name"]', name);
    await page.click('div[role="button"][aria-label="Turn off microphone"]');
    await page.click('div[role="button"][aria-label="Turn off camera"]');
    await page.click('button[jsname="Qx7uuf"]');
  };

  it('serves https://meet.google.com/<code> (hl ignored); an unknown code says "Check your meeting code"', async () => {
    const m = await meet();
    assert.equal(m.url, `https://meet.google.com/${m.meeting_id}`);
    assert.equal(m.replica, 'meet');
    const page = await open(`${m.url}?hl=en`);
    assert.equal(new URL(page.url()).hostname, 'meet.google.com');
    const missing = await pages.open();
    const response = await missing.goto('https://meet.google.com/zzz-zzzz-zzz');
    assert.equal(response?.status(), 404);
    assert.match(await bodyText(missing), /Check your meeting code/);
    // the sandbox's own mt host does not serve replica meetings
    assert.equal(suite.sandbox.registry.find(m.meeting_id, 'mt'), null);
  });

  it('lobby: one named text input, div toggles that flip, a label-less CTA enabled by a name, the traps, the audio pool', async () => {
    const m = await meet();
    const page = await open(m.url);
    await page.waitForSelector('input[aria-label="Your name"]', WAIT);
    const inputs = await page.$$eval('input[type="text"]', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => [e.getAttribute('aria-label'), e.hasAttribute('jsname')]));
    assert.deepEqual(inputs, [['Your name', true]]);
    const cta = await page.$eval('button[jsname="Qx7uuf"]', (b) => [b.hasAttribute('aria-label'), b.querySelector('span')?.textContent, (b as HTMLButtonElement).disabled]);
    assert.deepEqual(cta, [false, 'Ask to join', true]);
    assert.equal(await count(page, 'button[jsname][aria-label="More options"]'), 1, 'the 3-dot button has a jsname and a label');
    assert.equal(await count(page, '[data-participant-id] [aria-label="Backgrounds and effects"]'), 1, 'the self-preview is a participant tile (trap)');
    assert.equal(
      await page.evaluate(`Array.from(document.querySelectorAll('audio')).filter((a) => a.autoplay && a.srcObject instanceof MediaStream && a.srcObject.getAudioTracks()[0].readyState === 'live').length`),
      3,
      'three live remote-audio slots, already in the lobby',
    );
    await page.click('div[role="button"][aria-label="Turn off microphone"]');
    assert.equal(await count(page, 'div[role="button"][aria-label="Turn on microphone"]'), 1);
    await page.type('input[aria-label="Your name"]', 'R');
    assert.equal(await page.$eval('button[jsname="Qx7uuf"]', (b) => (b as HTMLButtonElement).disabled), false);

    const openMeeting = await open((await meet({ lobby: false })).url);
    const openCta = await openMeeting.waitForSelector('button[jsname="Qx7uuf"] span', WAIT);
    assert.equal(await openCta!.evaluate((e) => e.textContent), 'Join now', 'an open meeting says Join now');
  });

  for (const [wording, text] of [
    ['let_in', 'You\u2019ll join the call when someone lets you in'],
    ['asking_to_join', 'Asking to join\u2026'],
    ['admits_you', 'Please wait until a meeting host admits you to the call'],
    ['brings_you_in', 'Please wait until a meeting host brings you into the call'],
  ] as const) {
    it(`waiting after the knock, wording ${wording}: its text, "Return to home screen", the call controls already rendered`, async () => {
      const m = await meet({ lobby_wording: wording });
      const page = await open(m.url);
      await knock(page);
      await waitForText(page, text);
      assert.match(await bodyText(page), /Return to home screen/);
      assert.equal(await count(page, '[role="region"][aria-label="Call controls"] button[aria-label="Leave call"]'), 1);
      const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
      assert.deepEqual([bot.name, bot.microphone, bot.camera], ['Rec Bot', false, false]);
    });
  }

  it('in the call: tiles, controls that hide when the pointer rests, people, chat rows, More options -> layout', async () => {
    const m = await meet({ lobby: false, toolbar_autohide_seconds: 1 });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const page = await open(m.url);
    await knock(page);
    await page.waitForSelector('[data-self-name]', WAIT);
    const bot = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.kind === 'browser')!;
    const tiles = await page.$$eval('[data-participant-id]', (els) => els.map((e) => [e.getAttribute('data-participant-id'), e.querySelector('span.notranslate')?.textContent, e.hasAttribute('data-self-name')]));
    assert.deepEqual(tiles, [
      [alice.participant_id, 'Alice', false],
      [bot.participant_id, 'Rec Bot', true],
    ]);
    assert.equal(await page.$eval('[data-avatar-count]', (e) => e.getAttribute('data-avatar-count')), '2');
    for (const label of ['Leave call', 'Chat with everyone', 'More options', 'Turn on captions', 'Turn on microphone']) {
      assert.equal(await count(page, `[role="region"][aria-label="Call controls"] button[aria-label="${label}"]`), 1, label);
    }
    assert.equal(await count(page, 'nav button[aria-label="People"][data-panel-id="1"]'), 1);

    const controlsVisible = () => page.$eval('[role="region"][aria-label="Call controls"]', (e) => getComputedStyle(e).visibility === 'visible');
    await page.waitForFunction(`getComputedStyle(document.querySelector('[role="region"][aria-label="Call controls"]')).visibility === 'hidden'`, WAIT);
    await page.mouse.move(100, 100);
    await page.mouse.move(120, 120);
    assert.equal(await controlsVisible(), true, 'a pointer move brings the toolbar back');

    await page.click('nav button[aria-label="People"]');
    assert.deepEqual(await page.$$eval('div[role="list"][aria-label="Participants"] div[role="listitem"]', (els) => els.map((e) => e.getAttribute('aria-label'))), ['Alice', 'Rec Bot']);

    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Hello bot');
    await page.waitForSelector('button[aria-label="Chat with everyone - New message"]', WAIT);
    await page.mouse.move(130, 130);
    await page.click('button[aria-label^="Chat with everyone"]');
    await page.waitForSelector('div[data-message-id] .jO4O1', WAIT);
    assert.equal(await count(page, 'button[data-message-id]'), 1, 'the pin button carries the message id too');
    await page.type('textarea[aria-label="Send a message"]', 'Hello Alice');
    await page.keyboard.press('Enter');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.messages.length === 2, 5000, 'the page message');
    await page.waitForFunction(`document.querySelectorAll('div[data-message-id]').length === 2`, WAIT);
    const rows = await page.$$eval('.Ss4fHf', (gs) => gs.map((g) => [g.querySelector('.poVWob')?.textContent, Array.from(g.querySelectorAll('div[data-message-id] .jO4O1')).map((t) => t.textContent)]));
    assert.deepEqual(rows, [['Alice', ['Hello bot']], ['Rec Bot', ['Hello Alice']]]);

    await page.mouse.move(140, 140);
    await page.click('[role="region"][aria-label="Call controls"] button[aria-label="More options"]');
    await page.click('[role="menu"] [role="menuitem"]');
    const spotlight = await page.waitForSelector('xpath/.//label[.//span[text()="Spotlight"]]', WAIT);
    await spotlight!.click();
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.some((p) => p.layout === 'Spotlight'), 5000, 'the layout');
    await page.click('button[aria-label="Close dialog"]');
    assert.equal(await count(page, '[role="dialog"]'), 0);
  });

  it('audio: speech goes to a free slot (least recently used), slots rotate, two speakers play at once; the lit tile follows', async () => {
    const m = await meet({ lobby: false });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const bob = await suite.sandbox.client.addSimulated(m.meeting_id, 'Bob', 'en+m3');
    const page = await open(m.url);
    await knock(page);
    await page.waitForSelector('[data-self-name]', WAIT);
    // listens to each slot's stream: which slots carry sound
    await page.evaluate(`(() => {
      const ctx = new AudioContext();
      window.__heard = new Set();
      Array.from(document.querySelectorAll('audio')).forEach((a, i) => {
        const an = ctx.createAnalyser();
        ctx.createMediaStreamSource(a.srcObject).connect(an);
        const buf = new Float32Array(an.fftSize);
        setInterval(() => { an.getFloatTimeDomainData(buf); if (buf.some((x) => Math.abs(x) > 0.01)) window.__heard.add(i); }, 20);
      });
    })()`);
    const heard = async () => ((await page.evaluate('Array.from(window.__heard).sort()')) as number[]);
    const reset = () => page.evaluate('window.__heard.clear()');
    /** The sandbox says the speech is over and the page shows it (no lit tile); the slots have carried `slots` sounds. */
    const speechOver = async (seconds: number, slots: number) => {
      await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.speaking.length === 0, seconds * 1000 + WAIT.timeout, 'the speech to end');
      await page.waitForFunction(`document.querySelectorAll('[data-audio-level="2"]').length === 0`, WAIT).catch(() => undefined);
      await page.waitForFunction(`window.__heard.size >= ${slots}`, WAIT).catch(() => undefined);
    };

    const first = await suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'One two three.');
    await page.waitForFunction(`document.querySelector('[data-participant-id="${alice.participant_id}"] [data-audio-level="2"]')`, WAIT);
    await speechOver(first.duration_seconds, 1);
    const firstSlots = await heard();
    assert.equal(firstSlots.length, 1, `one slot for one speaker: ${firstSlots}`);
    assert.equal(await count(page, '[data-audio-level="2"]'), 0, 'unlit once the speech ended');

    await reset();
    const second = await suite.sandbox.client.speak(m.meeting_id, bob.participant_id, 'Four five six.');
    await speechOver(second.duration_seconds, 1);
    const secondSlots = await heard();
    assert.equal(secondSlots.length, 1);
    assert.notEqual(secondSlots[0], firstSlots[0], 'the next speech takes another slot: slots rotate');

    await reset();
    const both = await Promise.all([
      // long enough to overlap even if one voice is synthesised seconds after the other
      suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'We speak at the same time about the quarterly plan, the budget and the hiring plan.'),
      suite.sandbox.client.speak(m.meeting_id, bob.participant_id, 'Yes, we both speak now, about the servers that were upgraded last night and the release.'),
    ]);
    await page.waitForFunction(`document.querySelectorAll('[data-audio-level="2"]').length === 2`, WAIT);
    await speechOver(Math.max(...both.map((b) => b.duration_seconds)), 2);
    assert.equal((await heard()).length, 2, 'two speakers, two slots at once');
  });

  it('deny: "Someone in the call denied your request to join", then "You left the meeting"', async () => {
    const m = await meet();
    const page = await open(m.url);
    await knock(page);
    const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 5000);
    await suite.sandbox.client.deny(m.meeting_id, bot.participant_id);
    await waitForText(page, 'Someone in the call denied your request to join');
    await waitForText(page, 'You left the meeting');
  });

  it("Meet's own lobby timeout, shortened: \"No one responded to your request to join the call\"", async () => {
    const m = await meet({ lobby_timeout_seconds: 1 });
    const page = await open(m.url);
    await knock(page);
    await waitForText(page, 'No one responded to your request to join the call');
    const bot = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants[0]!;
    assert.deepEqual([bot.state, bot.end_reason], ['left', 'lobby_timeout']);
  });

  it('walls: "You can’t join this video call" after the knock; the sign-in page on accounts.google.com', async () => {
    const blocked = await meet({ wall: 'cannot_join' });
    const page = await open(blocked.url);
    await knock(page);
    await waitForText(page, 'You can\u2019t join this video call');

    const signIn = await meet({ wall: 'sign_in' });
    const wall = await open(signIn.url);
    assert.equal(new URL(wall.url()).hostname, 'accounts.google.com');
    assert.equal(await wall.$eval('h1', (h) => h.textContent), 'Sign in');
    assert.match(await bodyText(wall), /your Google Account/);
  });

  it('removed, ended, left: their pages', async () => {
    const m = await meet({ lobby: false });
    const [removed, ended] = [await open(m.url), await open(m.url)];
    await knock(removed, 'One');
    await knock(ended, 'Two');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.filter((p) => p.state === 'in_call').length === 2, 5000, 'both in');
    const one = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === 'One')!;
    await suite.sandbox.client.remove(m.meeting_id, one.participant_id);
    await waitForText(removed, 'You\u2019ve been removed from the meeting');
    await suite.sandbox.client.end(m.meeting_id);
    await waitForText(ended, 'Your host ended the meeting for everyone');

    const other = await meet({ lobby: false });
    const leaving = await open(other.url);
    await knock(leaving);
    await leaving.waitForSelector('[data-self-name]', WAIT);
    await leaving.mouse.move(50, 50);
    await leaving.click('button[aria-label="Leave call"]');
    await waitForText(leaving, 'You left the meeting');
  });
});
