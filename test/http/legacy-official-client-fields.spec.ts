import assert from 'node:assert/strict';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Legacy `POST /bots` with every field the official client (`@meeting-baas/sdk`'s joinMeeting) sends:
 * each accepted and delivered, `reserved` accepted and of no effect, as upstream.
 */
describe('legacy API: POST /bots takes every field of the official client', () => {
  let now = new Date(Date.UTC(2026, 2, 3, 9));
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({ clock: () => now, botSlots: 10, overrides: { launcher } });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 50 })).api_key);
  });
  after(() => t.stop());

  const join = async (fields: Record<string, unknown>) => api.post('/bots', { meeting_url: MEETING, bot_name: 'Notetaker', ...fields });
  const joined = async (fields: Record<string, unknown>): Promise<string> => {
    const response = await join(fields);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.bot_id;
  };
  /** From the log itself: the audit hides the providers' parameters. */
  const eventsOf = async (botId: string) => (await t.service.eventStore.readStream(`bot-${botId}`)) as unknown as { type: string; data: any }[];
  const configOf = async (botId: string) => (await eventsOf(botId)).find((e) => e.type === 'BotCreated' || e.type === 'BotScheduled')!.data.config;
  const refusal = async (fields: Record<string, unknown>) => {
    const response = await join(fields);
    assert.equal(response.status, 400, JSON.stringify(response.body));
    return response.body.message as string;
  };

  it('accepts reserved (true or false) and it changes nothing: the bot is the one made without it', async () => {
    const plain = await configOf(await joined({}));
    for (const reserved of [true, false]) assert.deepEqual(await configOf(await joined({ reserved })), plain, `reserved: ${reserved}`);
    assert.equal(await refusal({ reserved: 'yes' }), 'body/reserved must be boolean');
  });

  it('runs streaming {input, output, audio_frequency} as v2 streaming_config: the bot is given both sockets at that rate', async () => {
    const botId = await joined({ streaming: { input: 'wss://stream.example.com/in', output: 'wss://stream.example.com/out', audio_frequency: '24khz' } });
    const streaming = { input_url: 'wss://stream.example.com/in', output_url: 'wss://stream.example.com/out', audio_frequency: 24000 };
    assert.deepEqual((await configOf(botId)).streaming, streaming);
    assert.deepEqual((await launcher.waitForLaunch(botId)).job.streaming, streaming, 'the running bot opens these sockets');

    const outputOnly = await configOf(await joined({ streaming: { output: 'ws://127.0.0.1:9/out' } }));
    assert.deepEqual(outputOnly.streaming, { input_url: null, output_url: 'ws://127.0.0.1:9/out', audio_frequency: 16000 }, '16 kHz unless said');
    assert.equal((await configOf(await joined({ streaming: { input: null, output: null } }))).streaming, null, 'no socket asks for nothing');

    assert.equal(await refusal({ streaming: { audio_frequency: '16khz' } }), 'body/streaming/audio_frequency needs streaming.input or streaming.output');
    assert.match(await refusal({ streaming: { output: 'https://stream.example.com/out' } }), /^body\/streaming\/output must be a URL with scheme ws or wss/);
    assert.match(await refusal({ streaming: { output: 'wss://s.example.com', audio_frequency: '22khz' } }), /^body\/streaming\/audio_frequency must be equal to one of/);
    assert.equal(await refusal({ streaming: { output: 'wss://s.example.com', port: 1 } }), 'body/streaming/port is not an allowed property');
  });

  it('gives transcription_custom_parameters to the speech-to-text provider as v2 custom_params, and speech_to_text may be the provider alone', async () => {
    const botId = await joined({ speech_to_text: { provider: 'Gladia', api_key: 'gladia-key' }, transcription_custom_parameters: { language: 'fr', diarization: true } });
    const transcription = (await configOf(botId)).transcription;
    assert.equal(transcription.provider, 'Gladia');
    assert.deepEqual(transcription.custom_params, { language: 'fr', diarization: true });
    assert.deepEqual((await configOf(await joined({ speech_to_text: 'Default' }))).transcription, { provider: 'Default', api_key: null, custom_params: null });

    assert.equal(
      await refusal({ transcription_custom_parameters: { language: 'fr' } }),
      'body/transcription_custom_parameters needs speech_to_text (the provider they are for)',
    );
    assert.equal(
      await refusal({ speech_to_text: 'Default', transcription_custom_parameters: { language: 'fr' } }),
      'body/transcription_custom_parameters must be empty: the Default provider takes none',
    );
    assert.equal(await refusal({ speech_to_text: 'Gladia', transcription_custom_parameters: 'fr' }), 'body/transcription_custom_parameters must be object');
    assert.match(await refusal({ speech_to_text: 'Runpod' }), /^body\/speech_to_text\/provider must be one of Default, Gladia/);
  });

  it('schedules a bot with start_time ahead (Unix seconds) on the scheduler of v2 join_at; one not ahead joins at once', async () => {
    const joinAt = new Date(now.getTime() + 30 * 60_000);
    const botId = await joined({ start_time: joinAt.getTime() / 1000, bot_name: 'Later' });
    const [scheduled, ...rest] = await eventsOf(botId);
    assert.equal(scheduled.type, 'BotScheduled');
    assert.equal(scheduled.data.join_at, joinAt.toISOString());
    assert.equal(scheduled.data.config.api, 'legacy');
    assert.deepEqual(rest, []);
    const listed = (await api.get('/v2/bots/scheduled')).body.data.bots.map((b: { bot_id: string }) => b.bot_id);
    assert.ok(listed.includes(botId), 'listed with the v2 scheduled bots');

    now = new Date(joinAt.getTime() - SCHEDULED_BOT_LEAD_MS);
    const launch = await launcher.waitForLaunch(botId);
    assert.equal(launch.job.bot_name, 'Later');
    const details = await readUntil(async () => (await api.get(`/v2/bots/${botId}`)).body.data, (b) => b.status === 'queued');
    assert.deepEqual(details.status_history.map((s: { status: string }) => s.status), ['scheduled', 'queued']);

    const atOnce = await joined({ start_time: now.getTime() / 1000 - 60 });
    assert.equal((await eventsOf(atOnce))[0]!.type, 'BotCreated', 'a start_time already passed joins at once');
    assert.match(await refusal({ start_time: now.getTime() / 1000 + 400 * 86_400 }), /^body\/start_time must be at most one year ahead/);
    assert.match(await refusal({ start_time: -1 }), /^body\/start_time must be a number of seconds/);
  });

  it('takes the request as the official client sends it, every optional field null', async () => {
    const botId = await joined({
      automatic_leave: null, bot_image: null, deduplication_key: null, entry_message: null, extra: { from: 'sdk' }, recording_mode: null,
      reserved: false, speech_to_text: null, start_time: null, streaming: null, transcription_custom_parameters: null, webhook_url: null,
    });
    const config = await configOf(botId);
    assert.equal(config.recording_mode, 'speaker_view');
    assert.equal(config.streaming, null);
    assert.equal(config.transcription, null);
  });
});
