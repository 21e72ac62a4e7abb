/**
 * Bots created through the API on Zoom's real link forms (https://zoom.us/j/<id>?pwd=…, a regional
 * subdomain), joining the sandbox's Zoom web client replica: the whole service, bot child processes
 * started with SANDBOX_REPLICAS (the service passes it on), real Chromium resolving zoom.us and
 * app.zoom.us to the sandbox. The sandbox flavours' end-to-end suite (service-bots.spec.ts), on the
 * replica, plus Zoom's walls and a host who never starts. Zoom links are vc meetings: vc's rules hold
 * (only waiting_room_timeout applies), but the web client asks no recording permission.
 */
import assert from 'node:assert/strict';
import * as bots from '../support/api-bots';
import { replicaSuiteOnTheApi } from '../support/sandbox-and-service';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bots created through the API join the Zoom web client replica under zoom.us (service, bot processes, Chromium)', function () {
  this.timeout(180_000);
  const suite = replicaSuiteOnTheApi({ platform: 'vc', replica: 'zoom' }, /^https:\/\/zoom\.us\/j\/\d{9,11}\?pwd=[\w-]+\.1$/);
  const { meeting: zoom, createBot, waitForBot, ended } = suite;
  const end = bots.outcome;
  const json = bots.artifactJson;

  it('admitted from the waiting room: records a speaker, posts the entry and an API message, reads the chat, leaves on request', async () => {
    const m = await zoom({ lobby: true });
    const alice = await suite.sandbox.client.addSimulated(m.meeting_id, 'Alice');
    const botId = await createBot(m.url, { recording_mode: 'speaker_view', entry_message: 'hello from the zoom bot' });

    const waiting = await suite.sandbox.client.waitForParticipant(m.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    assert.deepEqual([waiting.microphone, waiting.camera], [false, false], 'asked to join with microphone and camera off');
    await waitForBot(botId, (b) => b.status === 'in_waiting_room');
    await suite.sandbox.client.admit(m.meeting_id, waiting.participant_id);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    const seenBot = () => suite.sandbox.client.getMeeting(m.meeting_id).then((v) => v.participants.find((p) => p.participant_id === waiting.participant_id)!);
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => v.events.some((e) => e.type === 'media' && e.participant_id === waiting.participant_id && e.detail?.startsWith('microphone=false')), 10_000, 'muted again after joining audio');

    const spoken = await suite.sandbox.client.speak(m.meeting_id, alice.participant_id, 'The quarterly numbers are ready for review');
    assert.ok(spoken.listeners.includes(waiting.participant_id), "the bot's page plays the speech: it joined computer audio");
    await suite.sandbox.client.chat(m.meeting_id, alice.participant_id, 'Welcome, bot');
    const chat = await suite.api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'api says hi on zoom' });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    const botMessages = (v: { messages: { participant_id: string; text: string }[] }) => v.messages.filter((x) => x.participant_id === waiting.participant_id).map((x) => x.text);
    await suite.sandbox.client.waitFor(m.meeting_id, (v) => botMessages(v).length >= 2, 20_000, "the bot's entry and API messages");
    // the speech heard to its end: the recording must cover it and the participants log its turn
    await sleep(spoken.duration_seconds * 1000 + 500);

    const seen = await suite.sandbox.client.getMeeting(m.meeting_id);
    assert.deepEqual(botMessages(seen), ['hello from the zoom bot', 'api says hi on zoom']);
    assert.equal((await seenBot()).layout, 'Speaker View', 'speaker_view picks the speaker view');
    assert.equal((await seenBot()).microphone, false);

    assert.equal((await suite.api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const done = await ended(botId);
    assert.equal(end(done), 'completed API_REQUEST', JSON.stringify(done));
    const statuses = done.status_history.map((s: { status: string }) => s.status);
    for (const s of ['queued', 'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'completed']) assert.ok(statuses.includes(s), `${s} in ${statuses}`);
    const left = await seenBot();
    assert.deepEqual([left.state, left.end_reason], ['left', 'left'], 'the bot clicked Leave, then Leave Meeting');

    const durationSeconds = await bots.checkRecording(suite.api, done);
    assert.ok(durationSeconds > spoken.duration_seconds, `recording ${durationSeconds} s`);

    const chatLog = (await json(done, 'chat_messages')) as { sender_id: string | null; sender_name: string; text: string }[];
    const own = (id: string) => id === waiting.participant_id;
    assert.equal(seen.messages.length, 3);
    assert.deepEqual(
      chatLog.map((c) => [c.sender_id, c.sender_name, c.text]),
      seen.messages.map((x) => [own(x.participant_id) ? null : x.sender_name, own(x.participant_id) ? 'Recorder Bot' : x.sender_name, x.text]),
      "the chat as the bot read it from Zoom's panel; Zoom shows no ids: Alice's id is her name",
    );
    const participants = await json(done, 'participants');
    const a = participants.participants.find((p: { name: string }) => p.name === 'Alice');
    assert.ok(a && a.speaking.length >= 1, `Alice's speaking turn from the main tile while the audio sounded: ${JSON.stringify(participants)}`);
    assert.ok(participants.participants.some((p: { name: string; is_bot: boolean }) => p.name === 'Recorder Bot' && p.is_bot), 'the "(me)" entry is the bot');
  });

  it('out of the meeting: removed from the waiting room (Zoom has no denial) -> BOT_NOT_ACCEPTED; removed while recording (a regional subdomain link), the meeting ended -> completed BOT_REMOVED', async () => {
    const [denied, removed, endedMeeting] = [await zoom({ lobby: true, waiting_room_wording: 'host_joined' }), await zoom({ lobby: false }), await zoom({ lobby: false })];
    await suite.sandbox.client.addSimulated(removed.meeting_id, 'Carol');
    await suite.sandbox.client.addSimulated(endedMeeting.meeting_id, 'Dan');
    const [deniedId, removedId, endedId] = [
      await createBot(denied.url),
      await createBot(removed.url.replace('//zoom.us/', '//us05web.zoom.us/')),
      await createBot(endedMeeting.url),
    ];
    const waiting = await suite.sandbox.client.waitForParticipant(denied.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    await waitForBot(deniedId, (b) => b.status === 'in_waiting_room');
    await suite.sandbox.client.deny(denied.meeting_id, waiting.participant_id);
    await Promise.all([removedId, endedId].map((id) => waitForBot(id, (b) => b.status === 'in_call_recording')));
    const inCall = await suite.sandbox.client.waitForParticipant(removed.meeting_id, 'in_call', 10_000, 'Recorder Bot');
    await suite.sandbox.client.remove(removed.meeting_id, inCall.participant_id);
    await suite.sandbox.client.end(endedMeeting.meeting_id);
    const [d, r, e] = await Promise.all([deniedId, removedId, endedId].map(ended));
    assert.equal(end(d), 'failed BOT_NOT_ACCEPTED', d.error_message);
    assert.equal(end(r), 'completed BOT_REMOVED', r.error_message);
    assert.equal(end(e), 'completed BOT_REMOVED', e.error_message);
  });

  it('alone once the others left: the bot sees it, and stays (on vc only waiting_room_timeout applies); leave -> completed API_REQUEST', async () => {
    const m = await zoom({ lobby: false });
    const erin = await suite.sandbox.client.addSimulated(m.meeting_id, 'Erin');
    const botId = await createBot(m.url, { timeout_config: { no_one_joined_timeout: 2, silence_timeout: 2 } });
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    await sleep(1500);
    await suite.sandbox.client.simulatedLeave(m.meeting_id, erin.participant_id);
    await sleep(5000);
    assert.equal((await bots.botDetails(suite.api, botId)).status, 'in_call_recording', 'still recording, alone, past no_one_joined_timeout');
    assert.equal((await suite.api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const done = await ended(botId);
    assert.equal(end(done), 'completed API_REQUEST');
    const participants = await json(done, 'participants');
    const e = participants.participants.find((p: { name: string }) => p.name === 'Erin');
    assert.ok(e && e.presence.length === 1 && e.presence[0].end !== null, `Erin seen leaving: ${JSON.stringify(participants)}`);
    const gone = Date.parse(e.presence[0].end);
    const leftAt = Date.parse((await suite.sandbox.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === 'Erin')!.left_at!);
    assert.ok(Math.abs(gone - leftAt) < 3000, 'within a few reads of her leaving');
  });

  it('walls end at once with their codes: the bot wall and the captcha -> CANNOT_JOIN_MEETING, sign-in -> LOGIN_REQUIRED', async () => {
    const [wall, captcha, auth] = [await zoom({ wall: 'bot' }), await zoom({ wall: 'captcha' }), await zoom({ wall: 'auth' })];
    const ids = [await createBot(wall.url), await createBot(captcha.url), await createBot(auth.url)];
    const [w, c, a] = await Promise.all(ids.map(ended));
    assert.equal(end(w), 'failed CANNOT_JOIN_MEETING');
    assert.match(w.error_message, /keeps bots out of this meeting: "We detected you may be a bot/);
    assert.equal(end(c), 'failed CANNOT_JOIN_MEETING');
    assert.equal(end(a), 'failed LOGIN_REQUIRED');
    assert.match(a.error_message, /signed-in users/);
  });

  it('waiting ends by waiting_room_timeout: a host who never starts -> WAITING_FOR_HOST_TIMEOUT (both pages), nobody admitting -> TIMEOUT_WAITING_TO_START', async () => {
    const [errorPage, afterJoin, lobby] = [
      await zoom({ host_present: false }),
      await zoom({ host_present: false, host_absent_page: 'waiting' }),
      await zoom({ lobby: true }),
    ];
    const timeout = { timeout_config: { waiting_room_timeout: 3 } };
    const ids = [await createBot(errorPage.url, timeout), await createBot(afterJoin.url, timeout), await createBot(lobby.url, timeout)];
    const [e, j, l] = await Promise.all(ids.map(ended));
    assert.equal(end(e), 'failed WAITING_FOR_HOST_TIMEOUT', e.error_message);
    assert.equal(end(j), 'failed WAITING_FOR_HOST_TIMEOUT', j.error_message);
    assert.equal(end(l), 'failed TIMEOUT_WAITING_TO_START', l.error_message);
    for (const b of [e, j, l]) assert.ok(b.status_history.some((s: { status: string }) => s.status === 'in_waiting_room'));
  });
});
