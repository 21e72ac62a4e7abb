import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam, MEETING, request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const VC_MEETING = 'https://vc.localhost/j/123456789';
const FORBIDDEN = { success: false, error: 'Forbidden', code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', statusCode: 403 };

describe('legacy API: POST /bots and DELETE /bots/{bot_id}', () => {
  let t: TestService;
  let nowMs = Date.UTC(2026, 2, 3, 9);
  before(async () => {
    t = await startTestService({ clock: () => new Date(nowMs) });
  });
  after(() => t.stop());

  const team = async (options: Parameters<typeof createTeam>[1] = {}) => {
    const created = await createTeam(t.url, options);
    const api = apiClient(t.url, created.api_key);
    return { ...created, api, delete: (path: string) => request(t.url, 'DELETE', path, { headers: { 'x-service-api-key': created.api_key } }) };
  };
  const events = async (api: ReturnType<typeof apiClient>, botId: string) => (await api.get(`/v2/bots/${botId}/events`)).body.data.events;
  const ledgerOf = async (teamId: string) => (await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data;

  describe('creation', () => {
    it('maps every delivered field of the legacy table into the bot configuration and answers 200 with bot_id', async () => {
      const { api } = await team();
      const created = await api.post('/bots', {
        meeting_url: MEETING,
        bot_name: 'Legacy Notetaker',
        recording_mode: 'audio_only',
        entry_message: 'Hello, I am recording',
        automatic_leave: { waiting_room_timeout: 120, noone_joined_timeout: 300 },
        webhook_url: 'https://hooks.example.com/meeting-bot',
        extra: { customer: 'acme', deal: 42 },
        deduplication_key: 'acme-weekly',
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.deepEqual(Object.keys(created.body), ['bot_id']);
      assert.match(created.body.bot_id, /^[0-9a-f-]{36}$/);

      const [botCreated] = await events(api, created.body.bot_id);
      assert.equal(botCreated.type, 'BotCreated');
      assert.equal(botCreated.data.bot_name, 'Legacy Notetaker');
      assert.equal(botCreated.data.platform, 'mt');
      assert.deepEqual(botCreated.data.extra, { customer: 'acme', deal: 42 });
      const config = botCreated.data.config;
      assert.equal(config.api, 'legacy');
      assert.equal(config.recording_mode, 'audio_only');
      assert.equal(config.entry_message, 'Hello, I am recording');
      assert.deepEqual(config.timeouts, { grace_period: 0, no_one_joined_timeout: 300, silence_timeout: 600, waiting_room_timeout: 120, max_recording_duration: null });
      assert.equal(config.webhook_url, 'https://hooks.example.com/meeting-bot');
      assert.equal(config.deduplication_key, 'acme-weekly');
      assert.equal(config.allow_multiple_bots, true);
      for (const off of ['transcription', 'vc', 'bot_image', 'streaming', 'callback', 'login']) assert.equal(config[off], null, off);

      const v2 = (await api.get(`/v2/bots/${created.body.bot_id}`)).body.data;
      assert.equal(v2.status, 'queued', 'a legacy bot is a bot like any other');
    });

    it('takes the spec defaults for what is not given (speaker_view, 600 s timeouts)', async () => {
      const { api } = await team();
      const created = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Minimal', automatic_leave: { silence_timeout: 45 } });
      assert.equal(created.status, 200);
      const { config } = (await events(api, created.body.bot_id))[0].data;
      assert.equal(config.recording_mode, 'speaker_view');
      assert.deepEqual([config.timeouts.waiting_room_timeout, config.timeouts.no_one_joined_timeout, config.timeouts.silence_timeout], [600, 600, 45]);
      assert.equal(config.webhook_url, null);
      assert.equal(config.deduplication_key, null);
    });

    it('takes the vc fields (OBF sources and the own SDK credentials); an OBF source makes the waiting room 200 s unless given (legacy OBF reference)', async () => {
      const { api } = await team();
      const cases: [Record<string, unknown>, unknown, number][] = [
        [{ vc_obf_token: 'token' }, { kind: 'token', token: '[encrypted]' }, 200],
        [{ vc_obf_token_url: 'https://tokens.example.com/obf' }, { kind: 'token_url', url: 'https://tokens.example.com/obf' }, 200],
        [{ vc_obf_token_url: 'https://tokens.example.com/obf', automatic_leave: { waiting_room_timeout: 90 } }, { kind: 'token_url', url: 'https://tokens.example.com/obf' }, 90],
        [{ vc_sdk_id: 'sdk', vc_sdk_pwd: 'pwd' }, null, 600],
      ];
      for (const [fields, obf, waiting] of cases) {
        const response = await api.post('/bots', { meeting_url: VC_MEETING, bot_name: 'Vc', ...fields });
        assert.equal(response.status, 200, JSON.stringify(response.body));
        const { config } = (await events(api, response.body.bot_id))[0].data;
        if (obf === null) assert.equal(config.vc.obf, null);
        else if (config.vc.obf.kind === 'token') assert.deepEqual(config.vc.obf, { kind: 'token', token: '[encrypted]' }, 'the token is sealed');
        else assert.deepEqual(config.vc.obf, obf);
        assert.equal(config.timeouts.waiting_room_timeout, waiting, JSON.stringify(fields));
      }
      const sdk = await api.post('/bots', { meeting_url: VC_MEETING, bot_name: 'Vc', vc_sdk_id: 'sdk', vc_sdk_pwd: 'pwd-never-shown' });
      const { config } = (await events(api, sdk.body.bot_id))[0].data;
      assert.equal(config.vc.sdk.sdk_id, 'sdk');
      assert.equal(config.vc.sdk.sdk_secret, '[encrypted]', 'the password is sealed');
      // Their "off" values ask for nothing.
      const off = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Off', speech_to_text: null, bot_image: null, recording_mode: 'speaker_view', vc_sdk_id: null });
      assert.equal(off.status, 200);
      // the bot's picture is delivered: accepted
      const pictured = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Pictured', bot_image: 'https://images.example.com/bot.png' });
      assert.equal(pictured.status, 200, JSON.stringify(pictured.body));
    });

    it('refuses a vc_obf_token_user_id with no OAuth connection of the team, and creates nothing', async () => {
      const { api, team_id } = await team();
      const response = await api.post('/bots', { meeting_url: VC_MEETING, bot_name: 'Vc', vc_obf_token_user_id: 'vc-user-1' });
      assert.equal(response.status, 400);
      assert.match(response.body.message, /^body\/vc_obf_token_user_id names no vc OAuth connection of this team/);
      assert.equal((await ledgerOf(team_id)).reserved, 0, 'nothing reserved for a refused request');
    });

    it('takes gallery_view, which every driver delivers', async () => {
      const { api } = await team();
      const created = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Gallery', recording_mode: 'gallery_view' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const { config } = (await events(api, created.body.bot_id))[0].data;
      assert.equal(config.recording_mode, 'gallery_view');
    });

    it('answers SET_VC_ID_AND_PWD_TOGETHER when only one of vc_sdk_id and vc_sdk_pwd is given', async () => {
      const { api } = await team();
      for (const [given, missing] of [[{ vc_sdk_id: 'my-sdk-id' }, 'vc_sdk_pwd'], [{ vc_sdk_pwd: 'my-sdk-secret' }, 'vc_sdk_id']] as const) {
        const response = await api.post('/bots', { meeting_url: VC_MEETING, bot_name: 'Sdk', ...given });
        assert.equal(response.status, 400);
        assert.equal(response.body.code, 'FST_ERR_VALIDATION');
        assert.equal(response.body.message, `body/${missing} SET_VC_ID_AND_PWD_TOGETHER: vc_sdk_id and vc_sdk_pwd must be given together`);
        assert.equal(response.body.details, response.body.message);
      }
    });

    it('refuses vc fields on other platforms and two OBF sources at once', async () => {
      const { api } = await team();
      const elsewhere = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Vc', vc_obf_token: 'x' });
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.body.message, 'body/vc_obf_token is only allowed for vc meetings (meeting_url is a mt meeting)');
      const two = await api.post('/bots', { meeting_url: VC_MEETING, bot_name: 'Vc', vc_obf_token: 'x', vc_obf_token_url: 'https://tokens.example.com/' });
      assert.equal(two.status, 400);
      assert.match(two.body.message, /^body\/vc_obf_token_url must NOT be given with vc_obf_token/);
    });

    it('answers 400 naming the field for every malformed request, never a 5xx', async () => {
      const { api } = await team();
      const cases: [unknown, RegExp][] = [
        [{ bot_name: 'No URL' }, /^body\/meeting_url is required/],
        [{ meeting_url: 'https://example.com/meeting', bot_name: 'X' }, /^body\/meeting_url INVALID_MEETING_URL/],
        [{ meeting_url: MEETING }, /^body\/bot_name is required/],
        [{ meeting_url: MEETING, bot_name: '' }, /^body\/bot_name must NOT have fewer than 1 characters/],
        [{ meeting_url: MEETING, bot_name: 'X', botname: 'typo' }, /^body\/botname is not an allowed property/],
        [{ meeting_url: MEETING, bot_name: 'X', automatic_leave: { noone_joined_timeout: -1 } }, /^body\/automatic_leave\/noone_joined_timeout must be an integer >= 0/],
        [{ meeting_url: MEETING, bot_name: 'X', automatic_leave: { no_one_joined_timeout: 5 } }, /^body\/automatic_leave\/no_one_joined_timeout is not an allowed property/],
        [{ meeting_url: MEETING, bot_name: 'X', automatic_leave: 600 }, /^body\/automatic_leave must be object/],
        [{ meeting_url: MEETING, bot_name: 'X', webhook_url: 'ftp://hooks.example.com/' }, /^body\/webhook_url must be an https URL/],
        [{ meeting_url: MEETING, bot_name: 'X', webhook_url: 'not a url' }, /^body\/webhook_url must be a valid URL/],
        [{ meeting_url: MEETING, bot_name: 'X', webhook_url: 'http://hooks.example.com/' }, /^body\/webhook_url must be an https URL \(plain http is allowed to this machine only\)/],
        [{ meeting_url: MEETING, bot_name: 'X', extra: ['a'] }, /^body\/extra must be object/],
        [{ meeting_url: MEETING, bot_name: 'X', entry_message: 'x'.repeat(4097) }, /^body\/entry_message must NOT have more than 4096 characters/],
        [{ meeting_url: MEETING, bot_name: 'X', deduplication_key: '' }, /^body\/deduplication_key must NOT have fewer than 1 characters/],
        [{ meeting_url: MEETING, bot_name: 'X', deduplication_key: 'k'.repeat(256) }, /^body\/deduplication_key must NOT have more than 255 characters/],
        [{ meeting_url: MEETING, bot_name: 'X', speech_to_text: 42 }, /^body\/speech_to_text must be object/],
        [{ meeting_url: MEETING, bot_name: 'X', speech_to_text: { provider: 'Default', model: 'x' } }, /^body\/speech_to_text\/model is not an allowed property/],
        [{ meeting_url: MEETING, bot_name: 'X', recording_mode: 'screen' }, /^body\/recording_mode must be equal to one of the allowed values/],
        [[1, 2], /^body must be object/],
      ];
      for (const [body, message] of cases) {
        const response = await api.post('/bots', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(response.body.success, false);
        assert.equal(response.body.code, 'FST_ERR_VALIDATION', JSON.stringify(response.body));
        assert.match(response.body.message, message);
      }
      const notJson = await request(t.url, 'POST', '/bots', { rawBody: '{"meeting_url":', headers: { 'x-service-api-key': (await team()).api_key, 'content-type': 'application/json' } });
      assert.equal(notJson.status, 400);
      assert.equal(notJson.body.success, false);
    });
  });

  describe('deduplication_key', () => {
    it('refuses a second active bot of the team with the key (409), frees the key when the bot ends, and is per team', async () => {
      const a = await team();
      const b = await team();
      const first = await a.api.post('/bots', { meeting_url: MEETING, bot_name: 'First', deduplication_key: 'standup' });
      assert.equal(first.status, 200);
      const second = await a.api.post('/bots', { meeting_url: 'https://meet.google.com/xyz-abcd-efg', bot_name: 'Second', deduplication_key: 'standup' });
      assert.equal(second.status, 409);
      assert.equal(second.body.code, 'FST_ERR_BOT_ALREADY_EXISTS');
      assert.equal(second.body.message, 'An active bot of this team already has this deduplication_key');
      assert.equal((await ledgerOf(a.team_id)).reserved, 0.5, 'the refused bot holds no tokens');
      assert.equal((await b.api.post('/bots', { meeting_url: MEETING, bot_name: 'Other team', deduplication_key: 'standup' })).status, 200);
      assert.equal((await a.api.post('/bots', { meeting_url: MEETING, bot_name: 'Other key', deduplication_key: 'Standup' })).status, 200, 'keys are exact text');

      assert.equal((await a.delete(`/bots/${first.body.bot_id}`)).status, 200);
      const third = await a.api.post('/bots', { meeting_url: MEETING, bot_name: 'Third', deduplication_key: 'standup' });
      assert.equal(third.status, 200, 'the ended bot no longer holds the key');
    });

    it('lets exactly one of many concurrent creations with one key win', async () => {
      const { api } = await team();
      const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => api.post('/bots', { meeting_url: MEETING, bot_name: `Racer ${i}`, deduplication_key: 'race' })));
      assert.deepEqual(responses.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
    });
  });

  describe('the same limits and permissions as v2', () => {
    it('answers 402 when the tokens cannot cover the reservation', async () => {
      const { api } = await team({ tokens: 0.5 });
      assert.equal((await api.post('/bots', { meeting_url: MEETING, bot_name: 'One' })).status, 200);
      const refused = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Two' });
      assert.equal(refused.status, 402);
      assert.equal(refused.body.code, 'FST_ERR_INSUFFICIENT_TOKENS');
    });

    it('counts legacy and v2 bots in one daily cap (429 with retryAfter)', async () => {
      const { api } = await team({ daily_bot_cap: 2 });
      assert.equal((await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'v2' })).status, 201);
      assert.equal((await api.post('/bots', { meeting_url: MEETING, bot_name: 'legacy' })).status, 200);
      const refused = await api.post('/bots', { meeting_url: MEETING, bot_name: 'over' });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'FST_ERR_DAILY_BOT_CAP_REACHED');
      assert.equal(refused.body.retryAfter, 24 * 60 * 60);
    });

    it('rate limits POST and DELETE per team, never the GETs', async () => {
      const { api, delete: del } = await team({ rate_limit_per_second: 2 });
      assert.equal((await api.post('/bots', { meeting_url: MEETING, bot_name: 'a' })).status, 200);
      const second = await api.post('/bots', { meeting_url: MEETING, bot_name: 'b' });
      assert.equal(second.status, 200);
      const limited = await api.post('/bots', { meeting_url: MEETING, bot_name: 'c' });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'FST_ERR_TOO_MANY_REQUESTS');
      assert.equal((await del(`/bots/${second.body.bot_id}`)).status, 429);
      for (let i = 0; i < 5; i++) assert.equal((await api.get('/bots/bots_with_metadata')).status, 200);
      assert.equal((await api.get(`/bots/meeting_data?bot_id=${second.body.bot_id}`)).status, 200);
    });

    it('refuses every legacy endpoint to a Sending Access key with the spec 403 body, and a missing key with 401', async () => {
      const { team_id, api } = await team();
      const botId = (await api.post('/bots', { meeting_url: MEETING, bot_name: 'Mine' })).body.bot_id;
      const issued = await adminClient(t.url).post(`/admin/teams/${team_id}/api-keys`, { permission: 'sending' });
      const sending = apiClient(t.url, issued.body.data.api_key);
      for (const call of [
        () => sending.post('/bots', { meeting_url: MEETING, bot_name: 'Sender' }),
        () => sending.get('/bots/bots_with_metadata'),
        () => sending.get(`/bots/meeting_data?bot_id=${botId}`),
        () => request(t.url, 'DELETE', `/bots/${botId}`, { headers: { 'x-service-api-key': issued.body.data.api_key } }),
      ]) {
        const response = await call();
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, FORBIDDEN);
      }
      const anonymous = await request(t.url, 'POST', '/bots', { body: { meeting_url: MEETING, bot_name: 'Anon' } });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.code, 'FST_ERR_UNAUTHORIZED');
    });
  });

  describe('removal', () => {
    it('answers { ok: true } and ends a bot nothing runs yet at once; a second removal is 409', async () => {
      const { api, delete: del } = await team();
      const botId = (await api.post('/bots', { meeting_url: MEETING, bot_name: 'Doomed' })).body.bot_id;
      const removed = await del(`/bots/${botId}`);
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body, { ok: true });
      const bot = (await api.get(`/v2/bots/${botId}`)).body.data;
      assert.equal(bot.status, 'failed');
      assert.equal(bot.error_code, 'EXITING_MEETING_BEFORE_RECORD');
      const again = await del(`/bots/${botId}`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'FST_ERR_BOT_STATUS');
    });

    it('removes v2 bots too; 404 for unknown bots and other teams\' bots, 400 for a malformed id, 405 for other methods', async () => {
      const a = await team();
      const b = await team();
      const v2 = (await a.api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'v2' })).body.data.bot_id;
      assert.deepEqual((await a.delete(`/bots/${v2}`)).body, { ok: true });
      const foreign = (await b.api.post('/bots', { meeting_url: MEETING, bot_name: 'theirs' })).body.bot_id;
      const hidden = await a.delete(`/bots/${foreign}`);
      assert.equal(hidden.status, 404);
      assert.equal(hidden.body.code, 'FST_ERR_BOT_NOT_FOUND');
      assert.equal((await b.api.get(`/v2/bots/${foreign}`)).body.data.status, 'queued', 'untouched');
      assert.equal((await a.delete('/bots/6f9619ff-8b86-1011-b42d-00c04fc964ff')).status, 404);
      const malformed = await a.delete('/bots/not-a-uuid');
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.message, 'params/bot_id must match format "uuid"');
      const wrongMethod = await a.api.get(`/bots/${foreign}`);
      assert.equal(wrongMethod.status, 405);
      assert.equal(wrongMethod.headers.get('allow'), 'DELETE');
    });
  });
});
