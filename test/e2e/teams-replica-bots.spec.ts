/**
 * Bots created through the API on Microsoft Teams' real URL forms (meetup-join on teams.microsoft.com,
 * short links on teams.live.com, teams.microsoft.com and teams.cloud.microsoft, light-meetings links),
 * joining the sandbox's Teams replica: the whole service, bot child processes started with
 * SANDBOX_REPLICAS (the service passes it on), real Chromium resolving the Teams hosts to the
 * sandbox. The sandbox flavours' end-to-end suite (service-bots.spec.ts), on the replica, plus its
 * walls. Ends that do not depend on each other run side by side to keep the file short.
 */
import assert from 'node:assert/strict';
import * as bots from '../support/api-bots';
import { replicaSuiteOnTheApi } from '../support/sandbox-and-service';

describe('bots created through the API join the Microsoft Teams replica under the Teams hosts (service, bot processes, Chromium)', function () {
  this.timeout(180_000);
  const suite = replicaSuiteOnTheApi({ platform: 'tm', replica: 'teams' }, /^https:\/\/teams\.(microsoft\.com|live\.com|cloud\.microsoft)\//);
  const { meeting: teams, createBot, waitForBot, ended } = suite;
  const end = bots.outcome;

  it('meetup-join link, admitted from the lobby past the AV-confirm modal: records two speakers, posts the entry and an API message, reads the chat, leaves on request', async () => {
    const m = await teams({ lobby: true });
    assert.match(m.url, /^https:\/\/teams\.microsoft\.com\/l\/meetup-join\/19%3ameeting_/);
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const bob = await suite.sandbox.client.addSimulated(m.meeting_id, 'Bob', 'en+m3');
    const botId = await createBot(m.url, { recording_mode: 'speaker_view', entry_message: 'hello from the teams bot' });

    const waiting = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    assert.deepEqual([waiting.microphone, waiting.camera], [false, false], 'asked to join with camera and microphone off');
    await waitForBot(botId, (b) => b.status === 'in_waiting_room');
    await suite.sandbox.client.admit(m.meeting_id, waiting.participant_id);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');

    const first = await suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'The quarterly numbers are ready for review');
    assert.ok(first.listeners.includes(waiting.participant_id), "the bot's page plays the speech through Teams' mixed stream");
    await new Promise((r) => setTimeout(r, first.duration_seconds * 1000 + 300));
    const second = await suite.sandbox.client.speak(m.meeting_id, bob.participant_id, 'We ship the new release on Monday');
    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Welcome, bot');
    const chat = await suite.api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'api says hi on teams' });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    await new Promise((r) => setTimeout(r, second.duration_seconds * 1000 + 500));

    const seen = await suite.sandbox.client.getMeeting(m.meeting_id);
    assert.deepEqual(seen.messages.filter((x) => x.participant_id === waiting.participant_id).map((x) => x.text), ['hello from the teams bot', 'api says hi on teams']);
    assert.equal(seen.participants.find((p) => p.participant_id === waiting.participant_id)?.layout, 'Speaker', 'speaker_view picks the Speaker layout');

    assert.equal((await suite.api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const done = await ended(botId);
    assert.equal(end(done), 'completed API_REQUEST', JSON.stringify(done));
    const statuses = done.status_history.map((s: { status: string }) => s.status);
    for (const s of ['queued', 'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'completed']) assert.ok(statuses.includes(s), `${s} in ${statuses}`);
    const left = (await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.participant_id === waiting.participant_id);
    assert.deepEqual([left?.state, left?.end_reason], ['left', 'left'], 'the bot hung up');

    const durationSeconds = await bots.checkRecording(suite.api, done);
    assert.ok(durationSeconds > first.duration_seconds + second.duration_seconds, `recording ${durationSeconds} s`);

    const chatLog = (await bots.artifactJson(done, 'chat_messages')) as { sender_id: string | null; sender_name: string; text: string }[];
    const own = (id: string) => id === waiting.participant_id;
    assert.equal(seen.messages.length, 3);
    assert.deepEqual(
      chatLog.map((c) => [c.sender_id, c.sender_name, c.text]),
      seen.messages.map((x) => [own(x.participant_id) ? null : x.sender_name, own(x.participant_id) ? 'Recorder Bot' : x.sender_name, x.text]),
      "the chat as the bot read it from Teams' rail: the bot's own messages as its own, Alice's under her name (Teams shows no participant ids)",
    );
    const participants = await bots.artifactJson(done, 'participants');
    for (const name of ['Alice', 'Bob']) {
      const p = participants.participants.find((x: { name: string }) => x.name === name);
      assert.ok(p && p.speaking.length >= 1, `${name}'s speaking turn from the glowing outline: ${JSON.stringify(participants)}`);
    }
    const self = participants.participants.find((x: { is_bot: boolean }) => x.is_bot);
    assert.equal(self?.name, 'Recorder Bot', 'the bot knows its own tile, "(Unverified)" and all');
  });

  it('before the call: denied in the lobby (teams.live.com short link) -> BOT_NOT_ACCEPTED; the sign-in modal and the login host -> LOGIN_REQUIRED; the captcha -> BOT_NOT_ACCEPTED', async () => {
    const denied = await teams({ lobby: true, link: 'live' });
    assert.match(denied.url, /^https:\/\/teams\.live\.com\/meet\/\d{13}\?p=/);
    const signIn = await teams({ wall: 'sign_in' });
    const login = await teams({ wall: 'login_redirect', link: 'meet' });
    const captcha = await teams({ wall: 'captcha' });
    const [deniedId, signInId, loginId, captchaId] = [await createBot(denied.url), await createBot(signIn.url), await createBot(login.url), await createBot(captcha.url)];
    const waiting = await suite.sandbox.client.waitForParticipant(denied.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    await suite.sandbox.client.deny(denied.meeting_id, waiting.participant_id);
    const [d, s, l, c] = await Promise.all([ended(deniedId), ended(signInId), ended(loginId), ended(captchaId)]);
    assert.equal(end(d), 'failed BOT_NOT_ACCEPTED');
    assert.equal(end(s), 'failed LOGIN_REQUIRED');
    assert.match(s.error_message, /signed-in users.*We need to verify your info before you can join/);
    assert.equal(end(l), 'failed LOGIN_REQUIRED');
    assert.equal(end(c), 'failed BOT_NOT_ACCEPTED');
    assert.match(c.error_message, /Verify you.re a real person/);
  });

  it('in the call: removed (light-meetings link, gallery_view) -> BOT_REMOVED; ended (teams.cloud.microsoft short link redirected to light-meetings, AV-confirm before the pre-join) -> BOT_REMOVED; alone -> NO_ATTENDEES', async () => {
    const removed = await teams({ lobby: false, link: 'light' });
    const endedMeeting = await teams({ lobby: false, link: 'cloud', short_link: 'light', av_confirm: 'before_prejoin' });
    const alone = await teams({ lobby: false, link: 'meet' });
    await suite.sandbox.client.addSimulated(removed.meeting_id, 'Carol');
    await suite.sandbox.client.addSimulated(endedMeeting.meeting_id, 'Dan');
    const [removedId, endedId, aloneId] = [
      await createBot(removed.url, { recording_mode: 'gallery_view' }),
      await createBot(endedMeeting.url),
      await createBot(alone.url, { timeout_config: { no_one_joined_timeout: 2 } }),
    ];
    await Promise.all([removedId, endedId].map((id) => waitForBot(id, (b) => b.status === 'in_call_recording')));
    const bot = await suite.sandbox.client.waitForParticipant(removed.meeting_id, 'in_call', 10_000, 'Recorder Bot');
    await suite.sandbox.client.waitFor(removed.meeting_id, (v) => v.participants.some((p) => p.layout === 'Gallery'), 5000, 'gallery_view picks the Gallery layout');
    await suite.sandbox.client.remove(removed.meeting_id, bot.participant_id);
    await suite.sandbox.client.end(endedMeeting.meeting_id);
    const [r, e, a] = await Promise.all([ended(removedId), ended(endedId), ended(aloneId)]);
    assert.equal(end(r), 'completed BOT_REMOVED');
    assert.equal(end(e), 'completed BOT_REMOVED');
    assert.equal(end(a), 'completed NO_ATTENDEES');
  });
});
