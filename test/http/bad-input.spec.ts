import assert from 'node:assert/strict';
import { apiClient, createTeam, MEETING, request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

describe('bad input never yields a 5xx and never changes stored data', () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService();
    key = (await createTeam(t.url)).api_key;
  });
  after(() => t.stop());

  const post = (rawBody: string | Buffer, contentType = 'application/json') =>
    request(t.url, 'POST', '/v2/bots', { rawBody, headers: { 'x-service-api-key': key, 'content-type': contentType } });

  const cases: [string, () => ReturnType<typeof post>, number, RegExp][] = [
    ['malformed JSON', () => post('{"meeting_url": '), 400, /body/],
    ['a JSON array', () => post('[1,2]'), 400, /body/],
    ['an empty body', () => post(''), 400, /body/],
    ['text/plain', () => post('hello', 'text/plain'), 415, /json/i],
    ['a 2 MB body', () => post(JSON.stringify({ meeting_url: MEETING, bot_name: 'x'.repeat(2_000_000) })), 413, /body/],
    ['invalid UTF-8', () => post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, /UTF-8|utf-8|body/],
    // Only the nesting guard can refuse this: a valid bot whose free-form `extra` nests objects 10 000 deep.
    ['10 000 levels of nesting', () => post(`{"meeting_url":"${MEETING}","bot_name":"x","extra":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`), 400, /body must NOT be nested deeper than 32 levels/],
    ['a wrong type', () => post(JSON.stringify({ meeting_url: MEETING, bot_name: 42 })), 400, /bot_name/],
    ['a very long name', () => post(JSON.stringify({ meeting_url: MEETING, bot_name: 'n'.repeat(100_000) })), 400, /bot_name/],
    ['an unknown platform', () => post(JSON.stringify({ meeting_url: 'https://example.com/meeting', bot_name: 'x' })), 400, /meeting_url/],
    ['plain http', () => post(JSON.stringify({ meeting_url: 'http://meet.google.com/abc-defg-hij', bot_name: 'x' })), 400, /meeting_url/],
    ['a tm name the platform refuses', () => post(JSON.stringify({ meeting_url: 'https://teams.microsoft.com/l/meetup-join/abc', bot_name: 'a..b' })), 400, /bot_name/],
    ['six images', () => post(JSON.stringify({ meeting_url: MEETING, bot_name: 'x', bot_image: Array(6).fill('https://img.example/a.png') })), 400, /bot_image/],
    ['13 hours of recording', () => post(JSON.stringify({ meeting_url: MEETING, bot_name: 'x', timeout_config: { max_recording_duration: 13 * 3600 } })), 400, /max_recording_duration/],
  ];

  for (const [name, send, status, field] of cases) {
    it(`answers ${status} to ${name}, naming the field`, async () => {
      const response = await send();
      assert.equal(response.status, status, JSON.stringify(response.body).slice(0, 300));
      assert.equal(response.body.success, false);
      assert.equal(response.body.statusCode, status);
      assert.match(`${response.body.details ?? ''} ${response.body.message}`, field);
    });
  }

  it('created no bot and kept the service healthy after all of that', async () => {
    const list = await apiClient(t.url, key).get('/v2/bots');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.bots, []);
    assert.equal((await apiClient(t.url, key).post('/v2/bots', { meeting_url: MEETING, bot_name: 'ok' })).status, 201);
  });
});
