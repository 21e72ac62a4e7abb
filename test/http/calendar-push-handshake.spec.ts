import assert from 'node:assert/strict';
import { request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

/** Graph's subscription handshake echoes a token to whoever asks: it must stay inert text. */
describe('the Microsoft Graph validation handshake', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.stop());

  const channel = '6f9619ff-8b86-4011-b42d-00c04fc964ff_0123456789abcdef';
  const handshake = (token: string, channelId = channel) =>
    request(t.url, 'POST', `/calendar-push/microsoft?channel=${encodeURIComponent(channelId)}&validationToken=${encodeURIComponent(token)}`, {});

  it('echoes the token as plain UTF-8 text that no browser sniffs into markup', async () => {
    const token = 'Validation: Testing client application reachability for subscription Request-Id: <script>alert(1)</script> é';
    const answer = await handshake(token);
    assert.equal(answer.status, 200);
    assert.equal(answer.body, token);
    assert.equal(answer.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  });

  it('refuses a token longer than 1 024 characters (400 naming it), one given twice, and a channel that is not one of ours (403)', async () => {
    assert.equal((await handshake('x'.repeat(1_024))).status, 200);
    const long = await handshake('x'.repeat(1_025));
    assert.equal(long.status, 400);
    assert.equal(long.body.message, 'querystring/validationToken must be given once, at most 1024 characters');
    assert.equal(JSON.stringify(long.body).includes('x'.repeat(100)), false, 'the refusal does not echo it');
    const twice = await request(t.url, 'POST', `/calendar-push/microsoft?channel=${channel}&validationToken=a&validationToken=b`, {});
    assert.equal(twice.status, 400);
    const stranger = await handshake('abc', 'not-a-channel');
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.code, 'FST_ERR_CALENDAR_PUSH_REFUSED');
  });
});
