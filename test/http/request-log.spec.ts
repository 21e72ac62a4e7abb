import assert from 'node:assert/strict';
import { completeJsonLines } from '../support/json-lines';
import { apiClient, createTeam, MEETING, request } from '../support/http-client';
import { ADMIN_TOKEN, startTestService } from '../support/test-service';

describe('request log', () => {
  it('writes one JSON line per request with a request id, and never a key or the admin token', async () => {
    const t = await startTestService();
    try {
      const team = await createTeam(t.url);
      const api = apiClient(t.url, team.api_key);
      await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Logged', transcription_enabled: true, transcription_config: { provider: 'x', api_key: 'provider-secret-123' } });
      await api.get('/v2/bots?cursor=bad');
      await request(t.url, 'GET', '/v2/bots', { headers: { 'x-service-api-key': 'mbs_wrong-key-value', 'x-request-id': 'trace-me-1' } });

      const lines = completeJsonLines(t.logText());
      const requests = lines.filter((l) => l.msg === 'request');
      assert.ok(requests.length >= 4);
      for (const line of requests) {
        assert.equal(typeof line.req_id, 'string');
        assert.equal(typeof line.status, 'number');
        assert.equal(typeof line.method, 'string');
      }
      assert.ok(requests.some((l) => l.req_id === 'trace-me-1' && l.status === 401), 'a caller’s request id is kept');
      const text = t.logText();
      for (const secret of [team.api_key, ADMIN_TOKEN, 'mbs_wrong-key-value', 'provider-secret-123']) assert.ok(!text.includes(secret), `log leaks ${secret.slice(0, 8)}…`);
    } finally {
      await t.stop();
    }
  });
});

describe('write-only secrets of a bot', () => {
  it('are encrypted in the event log and never shown back', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const path = await import('node:path');
    const t = await startTestService();
    try {
      const apiKey = (await createTeam(t.url)).api_key;
      const api = apiClient(t.url, apiKey);
      const created = await api.post('/v2/bots', {
        meeting_url: MEETING,
        bot_name: 'Secretive',
        callback_enabled: true,
        callback_config: { url: 'https://hooks.example/cb', secret: 'PLAIN-CALLBACK-SECRET-42' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const events = await api.get(`/v2/bots/${created.body.data.bot_id}/events`);
      const shown = JSON.stringify(events.body);
      assert.ok(!shown.includes(apiKey) && !shown.includes('PLAIN-CALLBACK-SECRET-42'));
      assert.equal(events.body.data.events[0].data.config.callback.secret, '[encrypted]');
      assert.equal(events.body.data.events[0].data.created_by.api_key, '[encrypted]', 'the creating key, kept sealed for webhooks');
      // The log file and its write-ahead log: a secret could sit in either.
      const stored = readdirSync(t.dataDir)
        .filter((f) => f.startsWith('events.sqlite3'))
        .map((f) => readFileSync(path.join(t.dataDir, f)).toString('latin1'))
        .join('');
      assert.ok(stored.includes('https://hooks.example/cb'), 'the log was read');
      assert.ok(!stored.includes('Secretive'), "the bot's name is personal: sealed with the bot's data key");
      assert.ok(!stored.includes(apiKey) && !stored.includes('PLAIN-CALLBACK-SECRET-42'), 'no plain secret at rest');
    } finally {
      await t.stop();
    }
  });
});
