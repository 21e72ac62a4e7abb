/**
 * Bots created through the API on Google Meet's real URL form (https://meet.google.com/abc-defg-hij),
 * joining the sandbox's Meet replica: the whole service, bot child processes started with
 * SANDBOX_REPLICAS (the service passes it on), real Chromium resolving meet.google.com to the sandbox.
 * The sandbox flavours' end-to-end suite (service-bots.spec.ts), on the replica, plus its walls.
 */
import assert from 'node:assert/strict';
import * as bots from '../support/api-bots';
import { replicaSuiteOnTheApi } from '../support/sandbox-and-service';

describe('bots created through the API join the Google Meet replica under meet.google.com (service, bot processes, Chromium)', function () {
  this.timeout(180_000);
  const suite = replicaSuiteOnTheApi({ platform: 'mt', replica: 'meet' }, /^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
  const { meeting: meet, createBot, waitForBot, ended } = suite;
  const end = bots.outcome;

  it('admitted from the lobby: records a speaker, posts the entry and an API message, reads the chat, leaves on request', async () => {
    const m = await meet({ lobby: true });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const botId = await createBot(m.url, { recording_mode: 'speaker_view', entry_message: 'hello from the meet bot' });

    const waiting = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    assert.deepEqual([waiting.microphone, waiting.camera], [false, false], 'asked to join with microphone and camera off');
    await waitForBot(botId, (b) => b.status === 'in_waiting_room');
    await suite.sandbox.client.admit(m.meeting_id, waiting.participant_id);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');

    const spoken = await suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'The quarterly numbers are ready for review');
    assert.ok(spoken.listeners.includes(waiting.participant_id), "the bot's page plays the speech through Meet's audio slots");
    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Welcome, bot');
    const chat = await suite.api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'api says hi on meet' });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    await new Promise((r) => setTimeout(r, spoken.duration_seconds * 1000 + 500));

    const seen = await suite.sandbox.client.getMeeting(m.meeting_id);
    assert.deepEqual(seen.messages.filter((x) => x.participant_id === waiting.participant_id).map((x) => x.text), ['hello from the meet bot', 'api says hi on meet']);
    assert.equal(seen.participants.find((p) => p.participant_id === waiting.participant_id)?.layout, 'Spotlight', 'speaker_view picks the Spotlight layout');

    assert.equal((await suite.api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const done = await ended(botId);
    assert.equal(end(done), 'completed API_REQUEST', JSON.stringify(done));
    const statuses = done.status_history.map((s: { status: string }) => s.status);
    for (const s of ['queued', 'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'completed']) assert.ok(statuses.includes(s), `${s} in ${statuses}`);
    const left = await suite.sandbox.client.getMeeting(m.meeting_id);
    assert.deepEqual(
      [left.participants.find((p) => p.participant_id === waiting.participant_id)?.state, left.participants.find((p) => p.participant_id === waiting.participant_id)?.end_reason],
      ['left', 'left'],
      'the bot clicked Leave call',
    );

    const durationSeconds = await bots.checkRecording(suite.api, done);
    assert.ok(durationSeconds > spoken.duration_seconds, `recording ${durationSeconds} s`);

    const chatLog = (await bots.artifactJson(done, 'chat_messages')) as { sender_id: string | null; sender_name: string; text: string }[];
    const own = (id: string) => id === waiting.participant_id;
    assert.equal(seen.messages.length, 3);
    assert.deepEqual(
      chatLog.map((c) => [c.sender_id, c.sender_name, c.text]),
      seen.messages.map((x) => [own(x.participant_id) ? null : x.participant_id, own(x.participant_id) ? 'Recorder Bot' : x.sender_name, x.text]),
      "the chat as the bot read it from Meet's panel, Alice's message with her id",
    );
    const participants = await bots.artifactJson(done, 'participants');
    const a = participants.participants.find((p: { name: string }) => p.name === 'Alice');
    assert.ok(a && a.speaking.length >= 1, `Alice's speaking turn from the lit tile: ${JSON.stringify(participants)}`);
  });

  it('denied in the lobby -> BOT_NOT_ACCEPTED', async () => {
    const m = await meet({ lobby: true });
    const botId = await createBot(m.url);
    const waiting = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    await suite.sandbox.client.deny(m.meeting_id, waiting.participant_id);
    assert.equal(end(await ended(botId)), 'failed BOT_NOT_ACCEPTED');
  });

  it('removed while recording (gallery_view: the Tiled layout) -> completed BOT_REMOVED', async () => {
    const m = await meet({ lobby: false });
    await suite.sandbox.client.addSimulated(m.meeting_id, 'Carol');
    const botId = await createBot(m.url, { recording_mode: 'gallery_view' });
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    const bot = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'in_call', 10_000, 'Recorder Bot');
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.participants.some((p) => p.participant_id === bot.participant_id && p.layout === 'Tiled'), 10_000, 'gallery_view picks the Tiled layout');
    await suite.sandbox.client.remove(m.meeting_id, bot.participant_id);
    assert.equal(end(await ended(botId)), 'completed BOT_REMOVED');
  });

  it('the host ends the meeting while the bot records -> completed BOT_REMOVED', async () => {
    const m = await meet({ lobby: false });
    await suite.sandbox.client.addSimulated(m.meeting_id, 'Dan');
    const botId = await createBot(m.url);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    await suite.sandbox.client.end(m.meeting_id);
    assert.equal(end(await ended(botId)), 'completed BOT_REMOVED');
  });

  it('alone in the call -> completed NO_ATTENDEES', async () => {
    const m = await meet({ lobby: false });
    const botId = await createBot(m.url, { timeout_config: { no_one_joined_timeout: 2 } });
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    assert.equal(end(await ended(botId)), 'completed NO_ATTENDEES');
  });

  it('walls end at once with their codes: "You can’t join this video call" -> BOT_NOT_ACCEPTED, sign-in -> MT_LOGIN_REQUIRED', async () => {
    const blocked = await meet({ wall: 'cannot_join' });
    const signIn = await meet({ wall: 'sign_in' });
    const [blockedId, signInId] = [await createBot(blocked.url), await createBot(signIn.url)];
    const [b, s] = await Promise.all([ended(blockedId), ended(signInId)]);
    assert.equal(end(b), 'failed BOT_NOT_ACCEPTED');
    assert.match(b.error_message, /You can.t join this video call/);
    assert.equal(end(s), 'failed MT_LOGIN_REQUIRED');
    assert.match(s.error_message, /signed-in users/);
  });
});
