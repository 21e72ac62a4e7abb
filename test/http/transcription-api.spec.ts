/**
 * Transcription through the API, over real HTTP: a bot created with transcription (a hosted provider's
 * local fake, Gladia's protocol) ends with its recording; the service transcribes it, stores the raw and
 * diarized transcripts in the bot's storage with speakers from the bot's speaker timeline, links them in
 * bot.completed and the bot's details, and charges transcription only when a transcript came out. A
 * failing provider ends the transcription TRANSCRIPTION_FAILED (the bot stays completed), and
 * re-transcribe recovers with its own webhook event. The bot is a stand-in speaking the internal API
 * (the real bot runtime is tested end to end in test/e2e/transcription-api-content.spec.ts).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { GladiaFake } from '../fakes/transcription/gladia-fake';
import type { ScriptedWord } from '../fakes/transcription/fake-provider-kit';
import { asBot } from '../support/as-bot';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

const GLADIA_KEY = 'gladia-team-key-123';
/** seconds of recording the stand-in reports: 42 s of recording is 0.012 tokens, 0.015 with transcription */
const RECORDED_SECONDS = 42;

/** What the fake "hears": Alice then Bob, with Gladia's speaker numbers. */
const WORDS: ScriptedWord[] = [
  { word: 'Good', start: 0.6, end: 0.9, speaker: 0 },
  { word: 'morning.', start: 1.0, end: 1.4, speaker: 0 },
  { word: 'Hello', start: 3.2, end: 3.6, speaker: 1 },
  { word: 'Alice.', start: 3.7, end: 4.1, speaker: 1 },
];

/** The whole service with stand-in bots, Gladia's fake as Gladia, and quick polls. */
const serviceWithGladia = (gladia: GladiaFake, launcher: ScriptedLauncher, dataDir?: string): Promise<TestService> =>
  startTestService({
    botSlots: 10,
    ...(dataDir ? { dataDir } : {}),
    overrides: {
      launcher,
      webhookDelivery: { pollMs: 20 },
      transcription: {
        urls: { gladia: gladia.url, deepgram: 'http://127.0.0.1:9', assemblyai: 'http://127.0.0.1:9' },
        hosted: { poll: { intervalMs: 50, timeoutMs: 60_000 }, http: { attempts: 2, backoffMs: 20, requestTimeoutMs: 5000 } },
      },
    },
  });

describe('transcription through the API (a hosted provider’s fake)', function () {
  this.timeout(60_000);
  let t: TestService;
  let gladia: GladiaFake;
  const launcher = new ScriptedLauncher();
  const receivers: WebhookReceiver[] = [];

  before(async () => {
    gladia = await new GladiaFake(GLADIA_KEY).start();
    gladia.setScript({ words: WORDS, pendingLooks: 1 });
    t = await serviceWithGladia(gladia, launcher);
  });
  after(async () => {
    await t?.stop();
    await gladia?.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  const teamWithEndpoint = async () => {
    const rx = await new WebhookReceiver().start();
    receivers.push(rx);
    const team = await createTeam(t.url, { tokens: 100 });
    const api = apiClient(t.url, team.api_key);
    assert.equal((await api.post('/v2/webhooks', { url: rx.url })).status, 201);
    const balance = async () => (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data as { balance: number; reserved: number };
    return { api, rx, balance };
  };

  /** A stand-in bot: records from `start`, stores a recording and participants.json with two speaking turns, ends API_REQUEST. */
  const runBot = async (api: ReturnType<typeof apiClient>, body: Record<string, unknown>, how: 'v2' | 'legacy' | 'scheduled' = 'v2') => {
    const legacy = how === 'legacy';
    const path = { v2: '/v2/bots', legacy: '/bots', scheduled: '/v2/bots/scheduled' }[how];
    const created = await api.post(path, { meeting_url: MEETING, bot_name: 'Notetaker', ...body });
    assert.equal(created.status, legacy ? 200 : 201, JSON.stringify(created.body));
    const botId = (legacy ? created.body.bot_id : created.body.data.bot_id) as string;
    const bot = asBot(await launcher.waitForLaunch(botId));
    const start = Date.now();
    const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
    for (const status of ['joining_call', 'in_call_recording']) {
      assert.equal((await bot.report({ kind: 'status', status, at: at(0) })).status, 204);
    }
    const artifact = async (artifact_type: string, key: string, content_type: string, bytes: Buffer) => {
      assert.equal((await bot.upload(key, bytes, content_type)).status, 204);
      await bot.report({ kind: 'artifact', artifact_type, key, content_type, size_bytes: bytes.length, at: at(RECORDED_SECONDS) });
    };
    await artifact('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('ID3 not really an mp3, the fake only downloads it'));
    const speakers = [
      { name: 'Alice', participant_id: 'p-alice', start: at(0.5), end: at(2.5) },
      { name: 'Bob', participant_id: 'p-bob', start: at(3), end: at(4.5) },
    ];
    await artifact('participants', 'participants.json', 'application/json', Buffer.from(JSON.stringify({ participants: [], speakers })));
    await bot.report({ kind: 'participants', participants: ['Alice', 'Bob'], speakers: ['Alice', 'Bob'], at: at(RECORDED_SECONDS) });
    await bot.report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: 'done', recorded_seconds: RECORDED_SECONDS, waiting_room_seconds: 0, at: at(RECORDED_SECONDS) });
    return botId;
  };

  const eventNamed = (name: string) => (received: readonly ReceivedWebhook[]) => received.some((r) => r.body.event === name);
  const bodyOf = (received: readonly ReceivedWebhook[], name: string) => received.find((r) => r.body.event === name)!.body.data;
  const linked = (data: { artifacts: { artifact_type: string; url: string }[] }, type: string) => data.artifacts.find((a) => a.artifact_type === type);
  const json = async (url: string) => {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    return response.json() as Promise<any>;
  };

  const checkTranscript = async (data: { bot_id: string; artifacts: { artifact_type: string; url: string }[] }) => {
    const diarized = await json(linked(data, 'transcription')!.url);
    assert.equal(diarized.bot_id, data.bot_id);
    assert.equal(diarized.provider, 'Gladia');
    assert.deepEqual(
      diarized.result.utterances.map((u: any) => [u.speaker, u.participant_id, u.text, u.start, u.end]),
      [
        ['Alice', 'p-alice', 'Good morning.', 0.6, 1.4],
        ['Bob', 'p-bob', 'Hello Alice.', 3.2, 4.1],
      ],
      'speakers come from the bot’s timeline, not from Gladia’s numbers',
    );
    const raw = await json(linked(data, 'raw_transcription')!.url);
    assert.equal(raw.transcriptions.length, 1);
    assert.deepEqual(raw.transcriptions[0], gladia.answers.filter((a) => a.status === 200 && (a.body as any)?.status === 'done').at(-1)!.body, 'Gladia’s answer verbatim');
    assert.equal(raw.transcription_ids.length, 1);
  };

  it('a bot with transcription: bot.completed waits for the transcript and links it, speakers from the timeline; transcription is charged', async () => {
    const { api, rx, balance } = await teamWithEndpoint();
    const botId = await runBot(api, { transcription_enabled: true, transcription_config: { provider: 'gladia', api_key: GLADIA_KEY } });
    const received = await rx.waitFor(eventNamed('bot.completed'));
    const completed = bodyOf(received, 'bot.completed');
    assert.equal(completed.status.code, 'completed');
    assert.equal(completed.error_code, 'API_REQUEST');
    assert.deepEqual(completed.transcription, { provider: 'Gladia', status: 'completed', error_code: null, error_message: null });
    await checkTranscript(completed);
    assert.ok(gladia.audioFetches.at(-1)?.ok, 'Gladia fetched the recording from its signed link');

    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.equal(details.status, 'completed');
    assert.equal(details.transcription.status, 'completed');
    await checkTranscript(details);
    const everything = JSON.stringify([details, (await api.get(`/v2/bots/${botId}/events`)).body, received.map((r) => r.body)]);
    assert.ok(!everything.includes(GLADIA_KEY), 'the provider key is never returned');
    assert.deepEqual(await balance(), { ...(await balance()), balance: 100 - 0.015, reserved: 0 }, '42 s of recording (1/h) and transcription (0.25/h), rounded up');
  });

  it('a scheduled bot with transcription (its stream starts with its schedule): transcript, bot.completed, settlement and re-transcribe as for a bot created at once', async () => {
    const { api, rx, balance } = await teamWithEndpoint();
    // Due at once (its time is within the queueing lead), so the stand-in is launched without waiting.
    const joinAt = new Date(Date.now() + 1000).toISOString();
    const botId = await runBot(api, { join_at: joinAt, transcription_enabled: true, transcription_config: { provider: 'gladia', api_key: GLADIA_KEY } }, 'scheduled');
    const completed = bodyOf(await rx.waitFor(eventNamed('bot.completed')), 'bot.completed');
    assert.equal(completed.bot_id, botId);
    assert.deepEqual(completed.transcription, { provider: 'Gladia', status: 'completed', error_code: null, error_message: null });
    await checkTranscript(completed);
    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.deepEqual(details.status_history.slice(0, 2).map((s: { status: string }) => s.status), ['scheduled', 'queued']);
    assert.equal(details.transcription.status, 'completed');
    assert.deepEqual(await balance(), { ...(await balance()), balance: 100 - 0.015, reserved: 0 }, 'settled: recording and transcription, nothing left reserved');

    const again = await api.post(`/v2/bots/${botId}/retranscribe`);
    assert.equal(again.status, 202, JSON.stringify(again.body));
    const retranscribed = bodyOf(await rx.waitFor(eventNamed('bot.transcription_completed')), 'bot.transcription_completed');
    assert.deepEqual(retranscribed.transcription, { provider: 'Gladia', status: 'completed', error_code: null, error_message: null }, 'the bot’s own provider and key');
    await checkTranscript(retranscribed);
  });

  it('a failing provider ends the transcription TRANSCRIPTION_FAILED (the bot stays completed, no transcription charged); re-transcribe recovers and sends bot.transcription_completed', async () => {
    const { api, rx, balance } = await teamWithEndpoint();
    const botId = await runBot(api, { transcription_enabled: true, transcription_config: { provider: 'Gladia', api_key: 'a-key-gladia-refuses' } });
    const received = await rx.waitFor(eventNamed('bot.completed'));
    const completed = bodyOf(received, 'bot.completed');
    assert.equal(completed.status.code, 'completed');
    assert.equal(completed.error_code, 'API_REQUEST');
    assert.equal(completed.transcription.status, 'failed');
    assert.equal(completed.transcription.error_code, 'TRANSCRIPTION_FAILED');
    assert.match(completed.transcription.error_message, /401/);
    assert.ok(!completed.transcription.error_message.includes('a-key-gladia-refuses'));
    assert.equal(linked(completed, 'transcription'), undefined);
    assert.ok(linked(completed, 'recording'));
    let details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.deepEqual([details.status, details.transcription.status, details.transcription.error_code], ['completed', 'failed', 'TRANSCRIPTION_FAILED']);
    assert.deepEqual((await balance()).balance, 100 - 0.012, 'recording only');

    // the bot's own (wrong) key again: refused by Gladia again; another key: a transcript
    const again = await api.post(`/v2/bots/${botId}/retranscribe`, { transcription: { provider: 'gladia', api_key: GLADIA_KEY } });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.body.success, true);
    const busy = await api.post(`/v2/bots/${botId}/retranscribe`);
    assert.ok(busy.status === 409 || busy.status === 202, 'a second request while one runs is refused (or the first has already ended)');
    const afterRetry = await rx.waitFor(eventNamed('bot.transcription_completed'));
    const retranscribed = bodyOf(afterRetry, 'bot.transcription_completed');
    assert.equal(retranscribed.bot_id, botId);
    assert.deepEqual(retranscribed.transcription, { provider: 'Gladia', status: 'completed', error_code: null, error_message: null });
    await checkTranscript(retranscribed);
    details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.equal(details.transcription.status, 'completed');
    await checkTranscript(details);
    assert.equal(afterRetry.filter((r) => r.body.event === 'bot.completed').length, 1, 'bot.completed is sent once');
    assert.deepEqual((await balance()).balance, 100 - 0.012, 'the bot was settled once, at its first transcription');
  });

  it('a failed re-transcribe sends bot.transcription_failed', async () => {
    const { api, rx } = await teamWithEndpoint();
    const botId = await runBot(api, {});
    await rx.waitFor(eventNamed('bot.completed'));
    const asked = await api.post(`/v2/bots/${botId}/retranscribe`, { transcription: { provider: 'Gladia', api_key: 'not-a-gladia-key' } });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    const failed = bodyOf(await rx.waitFor(eventNamed('bot.transcription_failed')), 'bot.transcription_failed');
    assert.equal(failed.transcription.error_code, 'TRANSCRIPTION_FAILED');
    assert.deepEqual(failed.artifacts, []);
  });

  it('refuses what it cannot do with a 4xx naming the field', async () => {
    const { api } = await teamWithEndpoint();
    const create = (transcription_config: unknown) => api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'x', transcription_enabled: true, transcription_config });
    const unknown = await create({ provider: 'whisperx' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /^body\/transcription_config\/provider must be one of Default, Gladia, Deepgram, AssemblyAI/);
    const keyless = await create({ provider: 'deepgram' });
    assert.equal(keyless.status, 400);
    assert.match(keyless.body.message, /^body\/transcription_config\/api_key is required/);
    const reserved = await create({ provider: 'gladia', api_key: 'k', custom_params: { audio_url: 'https://elsewhere.example/a.mp3' } });
    assert.equal(reserved.status, 400);
    assert.match(reserved.body.message, /^body\/transcription_config\/custom_params\/audio_url/);

    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Running' });
    const botId = created.body.data.bot_id as string;
    await launcher.waitForLaunch(botId);
    const running = await api.post(`/v2/bots/${botId}/retranscribe`);
    assert.equal(running.status, 409);
    assert.equal(running.body.code, 'FST_ERR_BOT_STATUS');
    const badBody = await api.post(`/v2/bots/${botId}/retranscribe`, { transcription: { provider: 'gladia', region: 'eu' } });
    assert.equal(badBody.status, 400);
    assert.match(badBody.body.message, /region/);
    const other = apiClient(t.url, (await createTeam(t.url)).api_key);
    assert.equal((await other.post(`/v2/bots/${botId}/retranscribe`)).status, 404);
  });

  it('legacy: speech_to_text gives `complete` its transcript and speakers, meeting_data its transcripts (honouring include_transcripts); POST /bots/retranscribe ends with transcription_complete', async () => {
    const { api, rx } = await teamWithEndpoint();
    const botId = await runBot(api, { speech_to_text: { provider: 'Gladia', api_key: 'refused-first' } }, 'legacy');
    const failedFirst = bodyOf(await rx.waitFor(eventNamed('complete')), 'complete');
    assert.deepEqual(failedFirst.speakers, ['Alice', 'Bob']);
    assert.equal(failedFirst.transcript, undefined, 'no transcript: the provider refused the key');
    assert.deepEqual((await api.get(`/bots/meeting_data?bot_id=${botId}`)).body.bot_data.transcripts, []);

    const asked = await api.post('/bots/retranscribe', { bot_uuid: botId, speech_to_text: { provider: 'Gladia', api_key: GLADIA_KEY } });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    const done = bodyOf(await rx.waitFor(eventNamed('transcription_complete')), 'transcription_complete');
    assert.deepEqual(done, { bot_id: botId });
    const data = (await api.get(`/bots/meeting_data?bot_id=${botId}`)).body.bot_data;
    assert.deepEqual(
      data.transcripts.map((s: any) => [s.speaker, s.start_time, s.end_time, s.words.map((w: any) => w.text).join(' '), s.bot_id === data.bot.id]),
      [
        ['Alice', 0.6, 1.4, 'Good morning.', true],
        ['Bob', 3.2, 4.1, 'Hello Alice.', true],
      ],
    );
    assert.deepEqual((await api.get(`/bots/meeting_data?bot_id=${botId}&include_transcripts=false`)).body.bot_data.transcripts, []);
    assert.equal(data.bot.speech_to_text_api_key, null);

    // a bot whose first transcription works: complete carries the transcript
    const second = await runBot(api, { speech_to_text: { provider: 'gladia', api_key: GLADIA_KEY } }, 'legacy');
    const completes = await rx.waitFor((r) => r.filter((x) => x.body.event === 'complete').length === 2);
    const complete = completes.filter((x) => x.body.event === 'complete')[1]!.body.data;
    assert.equal(complete.bot_id, second);
    assert.deepEqual(complete.transcript, [
      { speaker: 'Alice', start_time: 0.6, end_time: 1.4, words: [{ start: 0.6, end: 0.9, word: 'Good' }, { start: 1.0, end: 1.4, word: 'morning.' }] },
      { speaker: 'Bob', start_time: 3.2, end_time: 4.1, words: [{ start: 3.2, end: 3.6, word: 'Hello' }, { start: 3.7, end: 4.1, word: 'Alice.' }] },
    ]);
    const refused = await api.post('/bots', { meeting_url: MEETING, bot_name: 'x', speech_to_text: { provider: 'Runpod' } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /^body\/speech_to_text\/provider/);
    const noUuid = await api.post('/bots/retranscribe', { speech_to_text: 'Default' });
    assert.equal(noUuid.status, 400);
    assert.match(noUuid.body.message, /bot_uuid/);
  });
});

describe('transcription survives a restart (progress is the bot’s stream)', function () {
  this.timeout(60_000);
  let t: TestService;
  let gladia: GladiaFake;
  let rx: WebhookReceiver;
  let dataDir: string | null = null;

  before(async () => {
    gladia = await new GladiaFake(GLADIA_KEY).start();
    rx = await new WebhookReceiver().start();
  });
  after(async () => {
    await t?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await gladia?.stop();
    await rx?.stop();
  });

  const start = (launcher: ScriptedLauncher, dataDir?: string) => serviceWithGladia(gladia, launcher, dataDir);

  it("a transcription cut off by a stop goes on after the restart with the provider's job it had (none created again); a later restart runs nothing again", async () => {
    // the job stays "processing" until the service is stopped
    gladia.setScript({ words: WORDS, pendingLooks: 1 });
    gladia.holdJobs = true;
    const launcher = new ScriptedLauncher();
    t = await start(launcher);
    const team = await createTeam(t.url, { tokens: 100 });
    let api = apiClient(t.url, team.api_key);
    assert.equal((await api.post('/v2/webhooks', { url: rx.url })).status, 201);
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', transcription_enabled: true, transcription_config: { provider: 'gladia', api_key: GLADIA_KEY } });
    const botId = created.body.data.bot_id as string;
    const bot = asBot(await launcher.waitForLaunch(botId));
    const now = new Date().toISOString();
    for (const status of ['joining_call', 'in_call_recording']) await bot.report({ kind: 'status', status, at: now });
    const recording = Buffer.from('ID3 stand-in recording');
    assert.equal((await bot.upload('recording.mp3', recording, 'audio/mpeg')).status, 204);
    await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: recording.length, at: now });
    await bot.report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: 'done', recorded_seconds: 10, waiting_room_seconds: 0, at: now });

    const jobsCreated = () => gladia.requests.filter((r) => r.method === 'POST' && r.url === '/v2/pre-recorded').length;
    const deadline = Date.now() + 20_000;
    while (jobsCreated() === 0 || gladia.requests.filter((r) => r.method === 'GET').length < 3) {
      assert.ok(Date.now() < deadline, 'the first transcription started');
      await new Promise((r) => setTimeout(r, 50));
    }
    dataDir = t.dataDir;
    await t.service.stop();
    assert.equal(rx.events().includes('bot.completed'), false, 'bot.completed waits for the transcript');

    gladia.holdJobs = false;
    const looksBefore = gladia.requests.filter((r) => r.method === 'GET').length;
    t = await start(new ScriptedLauncher(), dataDir!);
    api = apiClient(t.url, team.api_key);
    await rx.waitFor((r) => r.some((x) => x.body.event === 'bot.completed'));
    assert.equal(jobsCreated(), 1, 'the job created before the stop is waited for, not created again');
    const job = (gladia.answers.find((a) => a.url === '/v2/pre-recorded')!.body as { id: string }).id;
    assert.ok(gladia.requests.filter((r) => r.method === 'GET').slice(looksBefore).every((r) => r.url === `/v2/pre-recorded/${job}`), 'the restarted service looked at that job');
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.transcription.error_message, null);
    const types = async () => ((await api.get(`/v2/bots/${botId}/events`)).body.data.events as { type: string }[]).map((e) => e.type).filter((type) => type.startsWith('Transcription'));
    assert.deepEqual(await types(), ['TranscriptionRequested', 'TranscriptionJobSubmitted', 'TranscriptionCompleted']);

    await t.service.stop();
    t = await start(new ScriptedLauncher(), dataDir!);
    api = apiClient(t.url, team.api_key);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(jobsCreated(), 1, 'an ended transcription is never run again');
    assert.deepEqual(await types(), ['TranscriptionRequested', 'TranscriptionJobSubmitted', 'TranscriptionCompleted']);
    assert.equal(rx.events().filter((e) => e === 'bot.completed').length, 1);
  });
});
