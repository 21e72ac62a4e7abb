import assert from 'node:assert/strict';
import { getMeetingDataResponse } from '@meeting-baas/sdk';
import { accountNumberOf } from '../../src/http/legacy/meeting-data';
import { adminClient, apiClient, createTeam, MEETING, request } from '../support/http-client';
import { asBot } from '../support/as-bot';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Every field the spec lists for `bot_data.bot`, the vc token and SDK fields included, and `end_reason`: the
 * spec's legacy recording end reason (docs/decisions.md, issue 18).
 */
const BOT_RECORD_FIELDS = [
  'account_id', 'bot_exited_at', 'bot_image', 'bot_joined_at', 'bot_name', 'bot_param_id', 'created_at', 'deduplication_key',
  'diarization_fails', 'diarization_v2', 'end_reason', 'ended_at', 'enter_message', 'errors', 'event_id', 'extra', 'id', 'is_stopped', 'meeting_url',
  'mp4_s3_path', 'noone_joined_timeout', 'recording_mode', 'reserved', 'scheduled_bot_id', 'session_id', 'silence_timeout',
  'speech_to_text_api_key', 'speech_to_text_provider', 'streaming_audio_frequency', 'streaming_input', 'streaming_output',
  'transcription_custom_parameters', 'transcription_fails', 'transcription_payloads', 'user_reported_error', 'uuid',
  'waiting_room_timeout', 'webhook_url', 'vc_access_token_url', 'vc_obf_token', 'vc_obf_token_url', 'vc_obf_token_user_id', 'vc_sdk_id', 'vc_sdk_pwd',
  // beyond the spec: when the team deleted the bot's data
  'data_deleted_at',
].sort();

describe('legacy API: GET /bots/meeting_data', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;
  let apiKey: string;
  let teamId: string;
  let nowMs = Date.UTC(2026, 2, 3, 9);
  const at = () => new Date(nowMs).toISOString();
  const tick = (seconds: number) => (nowMs += seconds * 1000);

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 10, clock: () => new Date(nowMs), overrides: { launcher } });
    const team = await createTeam(t.url, { tokens: 20 });
    teamId = team.team_id;
    apiKey = team.api_key;
    api = apiClient(t.url, apiKey);
  });
  after(() => t.stop());

  const meetingData = async (botId: string, query = '') => {
    const response = await api.get(`/bots/meeting_data?bot_id=${botId}${query}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };
  const listItem = async (botId: string) => (await api.get('/bots/bots_with_metadata?limit=50')).body.bots.find((b: { uuid: string }) => b.uuid === botId);

  it('shows a queued bot with every field of the spec, empty where the bot has none, in the official client\'s types', async () => {
    const created = await api.post('/bots', {
      meeting_url: MEETING,
      bot_name: 'Queued',
      entry_message: 'hi',
      automatic_leave: { waiting_room_timeout: 90, noone_joined_timeout: 120, silence_timeout: 30 },
      webhook_url: 'https://hooks.example.com/x',
      extra: { ref: 7 },
      deduplication_key: 'q-1',
    });
    const botId = created.body.bot_id;
    const data = await meetingData(botId);
    assert.deepEqual(Object.keys(data).sort(), ['audio', 'bot_data', 'duration', 'meeting_participants_file', 'mp4', 'speaker_diarization_file', 'speaker_diarization_file_network']);
    assert.deepEqual(Object.keys(data.bot_data).sort(), ['bot', 'event_uuid', 'transcripts']);
    assert.deepEqual(Object.keys(data.bot_data.bot).sort(), BOT_RECORD_FIELDS);
    const bot = data.bot_data.bot;
    assert.equal(bot.uuid, botId);
    assert.equal(bot.id, (await listItem(botId)).id);
    assert.equal(bot.account_id, accountNumberOf(teamId));
    assert.ok(Number.isSafeInteger(bot.account_id));
    const typed = getMeetingDataResponse.safeParse(data);
    assert.ok(typed.success, JSON.stringify(typed.error?.issues));
    assert.equal(bot.bot_name, 'Queued');
    assert.equal(bot.enter_message, 'hi');
    assert.equal(bot.meeting_url, MEETING);
    assert.deepEqual(bot.extra, { ref: 7 });
    assert.equal(bot.deduplication_key, 'q-1');
    assert.equal(bot.webhook_url, 'https://hooks.example.com/x');
    assert.deepEqual([bot.waiting_room_timeout, bot.noone_joined_timeout, bot.silence_timeout], [90, 120, 30]);
    assert.equal(bot.recording_mode, 'speaker_view');
    assert.equal(bot.created_at, new Date(nowMs).toISOString());
    for (const none of ['bot_exited_at', 'bot_joined_at', 'ended_at', 'end_reason', 'errors', 'bot_image', 'speech_to_text_provider', 'streaming_input', 'vc_sdk_id', 'vc_sdk_pwd', 'vc_obf_token', 'speech_to_text_api_key', 'event_id', 'scheduled_bot_id']) {
      assert.equal(bot[none], null, none);
    }
    assert.equal(bot.mp4_s3_path, '', 'no recording: an empty path');
    assert.equal(bot.bot_param_id, bot.id, "the bot's own parameters");
    assert.deepEqual(bot.transcription_custom_parameters, {});
    assert.equal(bot.is_stopped, false);
    assert.deepEqual([data.mp4, data.audio, data.duration, data.meeting_participants_file, data.bot_data.event_uuid], ['', '', 0, '', null]);
    assert.deepEqual(data.bot_data.transcripts, []);
  });

  /** A second key of the team (Full Access), to show that reads by any key count. */
  const createTeamKey = async () => (await adminClient(t.url).post(`/admin/teams/${teamId}/api-keys`, { permission: 'full' })).body.data.api_key as string;

  it('shows what a bot did: joined, recorded, speakers, links to the recording and participants, duration, exit', async () => {
    const created = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Recorder', recording_mode: 'audio_only' });
    const botId = created.body.bot_id;
    const launch = await launcher.waitForLaunch(botId);
    const bot = asBot(launch);
    const joinedAt = at();
    assert.equal((await bot.report({ kind: 'status', status: 'joining_call', at: joinedAt })).status, 204);
    assert.equal((await bot.report({ kind: 'status', status: 'in_call_recording', at: joinedAt })).status, 204);
    tick(95);
    const exitedAt = at();
    await bot.report({ kind: 'status', status: 'call_ended', at: exitedAt });
    const audio = Buffer.from('ID3-pretend-this-is-an-mp3');
    await bot.upload('recording.mp3', audio, 'audio/mpeg');
    await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: audio.length, at: at() });
    const participants = Buffer.from(JSON.stringify([{ name: 'Alice' }, { name: 'Bob' }]));
    await bot.upload('participants.json', participants, 'application/json');
    await bot.report({ kind: 'artifact', artifact_type: 'participants', key: 'participants.json', content_type: 'application/json', size_bytes: participants.length, at: at() });
    await bot.report({ kind: 'participants', participants: ['Alice', 'Bob'], speakers: ['Alice'], at: at() });
    tick(2);
    const endedAt = at();
    assert.equal((await bot.report({ kind: 'end', outcome: 'completed', error_code: 'BOT_REMOVED', error_message: 'removed', recorded_seconds: 94.6, waiting_room_seconds: 0, at: endedAt })).status, 204);
    launch.exit({ code: 0 });

    const data = await meetingData(botId);
    assert.equal(data.duration, 95);
    const record = data.bot_data.bot;
    assert.deepEqual([record.bot_joined_at, record.bot_exited_at, record.ended_at], [joinedAt, exitedAt, endedAt]);
    assert.equal(record.mp4_s3_path, 'recording.mp3');
    assert.equal(record.errors, null);
    assert.equal(record.is_stopped, false);
    assert.equal(record.end_reason, 'bot_removed', 'the legacy recording end reason');
    assert.match(record.session_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(record.recording_mode, 'audio_only');
    assert.equal(data.mp4, data.audio, 'an audio-only recording is the mp3 behind both links');
    const download = await fetch(data.mp4);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), audio);
    assert.deepEqual(Buffer.from(await (await fetch(data.meeting_participants_file)).arrayBuffer()), participants);

    const item = await listItem(botId);
    assert.deepEqual(item.speakers, ['Alice']);
    assert.equal(item.duration, 95);
    assert.equal(item.session_id, record.session_id);
    assert.equal(item.ended_at, endedAt);
  });

  it('counts every read as an access, by any key of the team, in the list and in the bot’s audit', async () => {
    const botId = (await api.post('/bots', { meeting_url: MEETING, bot_name: 'Read me' })).body.bot_id;
    assert.deepEqual([(await listItem(botId)).access_count, (await listItem(botId)).last_accessed_at], [0, null], 'listing is not an access');
    tick(1);
    await meetingData(botId);
    tick(1);
    const secondRead = at();
    const other = apiClient(t.url, await createTeamKey());
    assert.equal((await other.get(`/bots/meeting_data?bot_id=${botId.toUpperCase()}&include_transcripts=false`)).status, 200);
    const item = await listItem(botId);
    assert.equal(item.access_count, 2);
    assert.equal(item.last_accessed_at, secondRead);
    const audit = (await api.get(`/v2/bots/${botId}/events`)).body.data.events.filter((e: { type: string }) => e.type === 'BotDataAccessed');
    assert.equal(audit.length, 2);
    assert.notEqual(audit[0].data.key_id, audit[1].data.key_id, 'each read names the key that read');
    // Refused reads count nothing.
    assert.equal((await api.get(`/bots/meeting_data?bot_id=${botId}&include_transcripts=maybe`)).status, 400);
    assert.equal((await listItem(botId)).access_count, 2);
  });

  it('honours include_transcripts (default true) and shows the failure of a failed bot', async () => {
    const created = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Stopped early' });
    const botId = created.body.bot_id;
    await launcher.waitForLaunch(botId);
    const removed = await request(t.url, 'DELETE', `/bots/${botId}`, { headers: { 'x-service-api-key': await createTeamKey() } });
    assert.deepEqual(removed.body, { ok: true });
    const launch = await launcher.waitForLaunch(botId);
    await asBot(launch).report({ kind: 'end', outcome: 'failed', error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'left before recording', recorded_seconds: 0, waiting_room_seconds: 0, at: at() });
    for (const query of ['', '&include_transcripts=true', '&include_transcripts=false']) {
      const data = await meetingData(botId, query);
      assert.deepEqual(data.bot_data.transcripts, [], 'no transcript exists until the service transcribes');
      assert.equal(data.bot_data.bot.is_stopped, true);
      assert.deepEqual(JSON.parse(data.bot_data.bot.errors), [{ error: 'BotRemoved', error_code: 'EXITING_MEETING_BEFORE_RECORD', message: 'left before recording' }]);
      assert.equal(data.bot_data.bot.end_reason, 'api_request', 'removed through the API');
      assert.equal(data.duration, 0);
    }
  });

  it('shows v2 bots too; answers 400 for a missing or malformed bot_id and unknown parameters, 404 for unknown and other teams’ bots', async () => {
    const v2 = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'From v2', extra: { a: 1 } })).body.data.bot_id;
    const data = await meetingData(v2);
    assert.equal(data.bot_data.bot.bot_name, 'From v2');
    assert.deepEqual(data.bot_data.bot.extra, { a: 1 });
    const cases: [string, number, string][] = [
      ['', 400, 'querystring/bot_id is required'],
      ['?bot_id=', 400, 'querystring/bot_id is required'],
      ['?bot_id=42', 400, 'querystring/bot_id must match format "uuid"'],
      [`?bot_id=${v2}&bot_id=${v2}`, 400, 'querystring/bot_id must be given at most once'],
      [`?bot_id=${v2}&include_transcripts=yes`, 400, 'querystring/include_transcripts must be true or false'],
      [`?bot_id=${v2}&format=json`, 400, 'querystring/format is not an allowed parameter (allowed: bot_id, include_transcripts)'],
      ['?bot_id=6f9619ff-8b86-1011-b42d-00c04fc964ff', 404, 'Bot not found'],
    ];
    for (const [query, status, message] of cases) {
      const response = await api.get(`/bots/meeting_data${query}`);
      assert.equal(response.status, status, query);
      assert.equal(response.body.message, message, query);
      assert.equal(response.body.success, false);
    }
    const stranger = apiClient(t.url, (await createTeam(t.url)).api_key);
    const hidden = await stranger.get(`/bots/meeting_data?bot_id=${v2}`);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.code, 'FST_ERR_BOT_NOT_FOUND');
  });

  it('a rebuild of the read models gives identical answers: the same integer ids, the same access counts', async () => {
    // Every bot ends first: stopping the service for the restart would end those still running.
    for (const launch of launcher.launches) {
      await asBot(launch).report({ kind: 'end', outcome: 'failed', error_code: 'CANNOT_JOIN_MEETING', error_message: 'no meeting', recorded_seconds: 0, waiting_room_seconds: 0, at: at() });
      launch.exit({ code: 0 });
    }
    const snapshot = async () => {
      const bots = (await api.get('/bots/bots_with_metadata?limit=50&sort_by_extra=ref')).body;
      const data = await Promise.all(bots.bots.map(async (b: { uuid: string }) => (await api.get(`/v2/bots/${b.uuid}`)).body.data.status));
      return { bots, data };
    };
    // Reads held back are recorded first, as a stop records them.
    await t.service.projections.waitForPosition(await t.service.dataAccess.recordAll());
    const before = await snapshot();
    assert.ok(before.bots.bots.length >= 5);
    assert.ok(before.bots.bots.some((b: { access_count: number }) => b.access_count >= 2));
    const rebuilt = await adminClient(t.url).post('/admin/rebuild-projections');
    assert.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
    assert.deepEqual(await snapshot(), before);
    // Another instance id, so that the restarted service leaves the bots "still running" elsewhere alone.
    t = await t.restart({ instanceId: 'another-instance', botSlots: 0 });
    api = apiClient(t.url, apiKey);
    assert.deepEqual(await snapshot(), before, 'and so does a restart, which resumes the read models from their checkpoint');
  });
});
