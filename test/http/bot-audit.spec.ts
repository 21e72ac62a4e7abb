import assert from 'node:assert/strict';
import { asBot } from '../support/as-bot';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

/** Every `{sealed}` value of a stored event, as the store holds it. */
const sealedValuesIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(sealedValuesIn);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.sealed === 'string') return [record.sealed];
  return Object.values(record).flatMap(sealedValuesIn);
};

const HOST = 'bot-worker-7.internal.example';

describe('a bot’s audit (GET /v2/bots/{id}/events) shows its history without secrets or internal names', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  before(async () => {
    launcher = new ScriptedLauncher();
    // An instance named like the host it runs on (INSTANCE_ID defaults to the host name).
    t = await startTestService({ botSlots: 5, instanceId: HOST, overrides: { launcher } });
  });
  after(() => t.stop());

  it('no host name, sealed value, provider custom parameter or key appears; the history and the parameter names do', async () => {
    const { api_key: apiKey } = await createTeam(t.url);
    const api = apiClient(t.url, apiKey);
    const created = await api.post('/v2/bots', {
      meeting_url: MEETING,
      bot_name: 'Audited',
      transcription_enabled: true,
      transcription_config: { provider: 'gladia', api_key: 'gladia-key-0123456789', custom_params: { callback_url: 'https://hooks.example.com/t?token=custom-secret-value', language: 'fr' } },
      callback_enabled: true,
      callback_config: { url: 'https://hooks.example.com/cb', secret: 'callback-secret-value' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId = created.body.data.bot_id as string;
    const bot = asBot(await launcher.waitForLaunch(botId));
    assert.equal((await bot.status('joining_call')).status, 204);

    const answer = await api.get(`/v2/bots/${botId}/events`);
    assert.equal(answer.status, 200);
    const shown = JSON.stringify(answer.body);
    const stored = await t.service.eventStore.readStream(`bot-${botId}`);
    const sealed = sealedValuesIn(stored.map((e) => e.data));
    assert.ok(sealed.length >= 3, 'the provider key, the callback secret and the creating key are stored sealed');
    assert.ok(JSON.stringify(stored.map((e) => e.data)).includes(HOST), 'the store names the host that runs the bot');
    for (const hidden of [HOST, 'custom-secret-value', 'hooks.example.com/t', 'gladia-key-0123456789', 'callback-secret-value', apiKey, ...sealed]) {
      assert.equal(shown.includes(hidden), false, `the audit shows ${hidden}`);
    }

    const events = answer.body.data.events as { type: string; data: any }[];
    assert.deepEqual(events.map((e) => e.type), ['BotCreated', 'BotDispatched', 'StatusChanged']);
    assert.deepEqual(events[0]!.data.config.transcription, { provider: 'Gladia', api_key: '[encrypted]', custom_params: { callback_url: '[redacted]', language: '[redacted]' } });
    assert.equal(events[0]!.data.config.callback.url, 'https://hooks.example.com/cb', 'what is not secret stays as asked');
    assert.equal(events[1]!.data.worker_id, 'instance-1');
    assert.equal(events[2]!.data.status, 'joining_call');
  });
});
