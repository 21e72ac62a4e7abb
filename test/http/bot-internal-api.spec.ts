import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam, MEETING, request } from '../support/http-client';
import { asBot } from '../support/as-bot';
import { readUntil } from '../support/read-until';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

describe('the service side of a running bot (dispatcher, internal API, control channel, artifacts)', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;
  let teamId: string;
  let nowMs = Date.UTC(2026, 10, 21, 15);

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 20, clock: () => new Date(nowMs), overrides: { launcher } });
    const team = await createTeam(t.url, { tokens: 10 });
    api = apiClient(t.url, team.api_key);
    teamId = team.team_id;
  });
  after(() => t.stop());

  const startBot = async (body: Record<string, unknown> = {}) => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Runner', entry_message: 'hello all', ...body });
    assert.equal(created.status, 201);
    const launch = await launcher.waitForLaunch(created.body.data.bot_id);
    return { botId: created.body.data.bot_id as string, launch, bot: asBot(launch) };
  };


  it('hands a queued bot its job and a token that only works for that bot', async () => {
    const { botId, launch } = await startBot({ recording_mode: 'audio_only', timeout_config: { silence_timeout: 30 } });
    assert.equal(launch.job.meeting_url, MEETING);
    assert.equal(launch.job.bot_name, 'Runner');
    assert.equal(launch.job.entry_message, 'hello all');
    assert.equal(launch.job.recording_mode, 'audio_only');
    assert.equal(launch.job.timeout_config.silence_timeout, 30);
    assert.equal(launch.job.timeout_config.waiting_room_timeout, 600);
    assert.deepEqual(launch.job.upload, { kind: 'http', baseUrl: launch.serviceUrl, token: launch.botToken });

    const other = await startBot();
    const stolen = await request(`${launch.serviceUrl}/internal/bots/${other.botId}`, 'POST', '/reports', {
      body: { kind: 'status', status: 'joining_call', at: new Date().toISOString() },
      headers: { authorization: `Bearer ${launch.botToken}` },
    });
    assert.equal(stolen.status, 401, 'a bot cannot speak for another bot');
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.status, 'queued');
  });

  it('records who was in the meeting and who spoke, once; a malformed report is refused', async () => {
    const { botId, bot } = await startBot();
    const report = { kind: 'participants', participants: ['Alice', 'Bob'], speakers: ['Alice'], at: new Date(nowMs).toISOString() };
    assert.equal((await bot.report(report)).status, 204);
    assert.equal((await bot.report({ ...report, participants: ['Mallory'] })).status, 204, 'a repeat is accepted and changes nothing');
    assert.equal((await bot.report({ ...report, speakers: 'Alice' })).status, 400);
    const events = (await api.get(`/v2/bots/${botId}/events`)).body.data.events.filter((e: { type: string }) => e.type === 'ParticipantsReported');
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].data.participants, ['Alice', 'Bob']);
    assert.deepEqual(events[0].data.speakers, ['Alice']);
  });

  it('turns every reported status into the bot’s status history and refuses a move backwards', async () => {
    const { botId, bot } = await startBot();
    for (const status of ['joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording']) {
      assert.equal((await bot.status(status)).status, 204, status);
    }
    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.equal(details.status, 'in_call_recording');
    assert.deepEqual(details.status_history.map((s: { status: string }) => s.status), [
      'queued', 'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording',
    ]);
    const backwards = await bot.status('in_waiting_room');
    assert.equal(backwards.status, 409);
    assert.equal((await bot.report({ kind: 'status', status: 'dancing', at: new Date().toISOString() })).status, 400);
  });

  it('passes chat to the running bot and answers with its result (200, 422 when chat is disabled)', async () => {
    const { botId, bot } = await startBot();
    await bot.status('joining_call');
    await bot.status('in_call_recording');
    await bot.poll(0); // the bot is listening

    const sent = api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'from the API' });
    const polled = await bot.poll();
    assert.deepEqual(polled.body.requests.map((r: { kind: string; message: string }) => [r.kind, r.message]), [['chat', 'from the API']]);
    await bot.answer({ id: polled.body.requests[0].id, ok: true });
    const answered = await sent;
    assert.equal(answered.status, 200);
    assert.equal(answered.body.success, true);
    const history = (await api.get(`/v2/bots/${botId}/events`)).body.data.events;
    assert.ok(history.some((e: { type: string; data: { message: string } }) => e.type === 'ChatMessageSent' && e.data.message === 'from the API'));

    const refused = api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'again' });
    const next = await bot.poll();
    await bot.answer({ id: next.body.requests[0].id, ok: false, reason: 'chat_disabled', message: 'chat is off' });
    const disabled = await refused;
    assert.equal(disabled.status, 422);
    assert.equal(disabled.body.code, 'FST_ERR_CHAT_DISABLED');
  });

  it('answers 500 FST_ERR_SEND_CHAT_MESSAGE_FAILED when the bot cannot be reached', async () => {
    const { botId, bot } = await startBot();
    await bot.status('joining_call');
    await bot.status('in_call_not_recording');
    const response = await api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'anyone?' });
    assert.equal(response.status, 500);
    assert.equal(response.body.code, 'FST_ERR_SEND_CHAT_MESSAGE_FAILED');
  });

  it('stores uploaded artifacts and serves them through signed links that expire', async () => {
    const { botId, bot } = await startBot();
    const bytes = Buffer.from('RIFF-not-really-audio-0123456789');
    assert.equal((await bot.upload('recording.mp3', bytes, 'audio/mpeg')).status, 204);
    assert.equal((await bot.upload('%2E%2E%2Fescape.txt', bytes, 'text/plain')).status, 400, 'no way out of the bot’s folder');
    const reported = await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: bytes.length, at: new Date().toISOString() });
    assert.equal(reported.status, 204);

    const [artifact] = (await api.get(`/v2/bots/${botId}`)).body.data.artifacts;
    assert.equal(artifact.key, 'recording.mp3');
    assert.ok(Date.parse(artifact.url_expires_at) > nowMs);
    const download = await fetch(artifact.url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'audio/mpeg');
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);

    // One character of the signature changed (to another one: a fixed replacement would be no change 1 time in 64).
    const tampered = await fetch(artifact.url.replace(/signature=(.)/, (_: string, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`));
    assert.equal(tampered.status, 403);
    const before = nowMs;
    nowMs += 3 * 60 * 60 * 1000;
    assert.equal((await fetch(artifact.url)).status, 403, 'the link expired');
    nowMs = before;
  });

  it('leaves through the control channel; the bot’s end report completes it and charges by duration', async () => {
    const ledgerBefore = (await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data;
    const { botId, bot, launch } = await startBot();
    await bot.status('joining_call');
    await bot.status('in_call_recording');
    await bot.poll(0);

    const leaving = api.post(`/v2/bots/${botId}/leave`);
    const polled = await bot.poll();
    assert.equal(polled.body.requests[0].kind, 'leave');
    await bot.answer({ id: polled.body.requests[0].id, ok: true });
    assert.equal((await leaving).status, 200);
    await bot.status('call_ended');
    const end = await bot.report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 1800, waiting_room_seconds: 0, at: new Date().toISOString() });
    assert.equal(end.status, 204);
    launch.exit({ code: 0 });

    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.equal(details.status, 'completed');
    assert.equal(details.error_code, 'API_REQUEST');
    const ledger = await readUntil(() => adminClient(t.url).get(`/admin/teams/${teamId}`).then((r) => r.body.data), (l) => l.balance !== ledgerBefore.balance);
    assert.equal(ledger.balance, ledgerBefore.balance - 0.5, 'half an hour of recording costs half a token');
    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 409);
  });

  it('RECORDING_START_TIMEOUT is charged recording tokens for the whole wait: the waiting room and the recording permission (spec)', async () => {
    const ledgerBefore = (await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data;
    const { botId, bot, launch } = await startBot({ meeting_url: 'https://us02web.zoom.us/j/85551234567' });
    await bot.status('joining_call');
    await bot.status('in_waiting_room');
    await bot.status('in_call_not_recording');
    const end = await bot.report({
      kind: 'end', outcome: 'failed', error_code: 'RECORDING_START_TIMEOUT', error_message: 'no answer',
      recorded_seconds: 0, waiting_room_seconds: 600, permission_wait_seconds: 1200, at: new Date().toISOString(),
    });
    assert.equal(end.status, 204);
    launch.exit({ code: 0 });
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.error_code, 'RECORDING_START_TIMEOUT');
    const ledger = await readUntil(() => adminClient(t.url).get(`/admin/teams/${teamId}`).then((r) => r.body.data), (l) => l.balance !== ledgerBefore.balance);
    assert.equal(ledger.balance, ledgerBefore.balance - 0.5, '30 minutes of waiting (10 in the waiting room, 20 for the permission) cost half a token');
  });

  it('turns a bot process that dies without its end report into a failed bot with the crash code', async () => {
    const { botId, bot, launch } = await startBot();
    await bot.status('joining_call');
    const reservedThousandths = async () => Math.round((await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data.reserved * 1000);
    const reservedBefore = await reservedThousandths();
    assert.ok(reservedBefore >= 500, 'the running bot holds its 0.5-token reservation');
    launch.exit({ signal: 'SIGKILL' });
    const details = await readUntil(() => api.get(`/v2/bots/${botId}`).then((r) => r.body.data), (d) => d.status === 'failed');
    assert.equal(details.status, 'failed');
    assert.equal(details.error_code, 'FORCE_KILLED');
    const reservedAfter = await readUntil(reservedThousandths, (r) => r !== reservedBefore);
    assert.equal(reservedAfter, reservedBefore - 500, 'its 0.5-token reservation was released');
  });
});
