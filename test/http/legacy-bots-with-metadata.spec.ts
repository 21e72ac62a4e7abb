import assert from 'node:assert/strict';
import { takeBotToRun } from '../support/as-bot';
import { apiClient, createTeam, request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const T0 = Date.UTC(2026, 2, 3, 9, 0, 0);
const minute = (n: number) => T0 + n * 60_000;
/** `2026-03-03T09:0n:00`, without a zone, as legacy clients write it. */
const zoneless = (ms: number) => new Date(ms).toISOString().slice(0, 19);

describe('legacy API: GET /bots/bots_with_metadata', () => {
  let t: TestService;
  let nowMs = T0;
  let api: ReturnType<typeof apiClient>;
  let apiKey: string;
  let other: ReturnType<typeof apiClient>;
  /** bot ids by their name in this suite, in creation order */
  const bots: Record<string, string> = {};
  const order: string[] = [];

  const list = async (query = '') => {
    const response = await api.get(`/bots/bots_with_metadata${query === '' ? '' : `?${query}`}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as { bots: any[]; last_updated: string; next_cursor: string | null };
  };
  /** The names of the bots a query lists, in order. */
  const names = async (query = '') => (await list(query)).bots.map((b) => order[b.id - 1]);
  const refused = async (query: string) => {
    const response = await api.get(`/bots/bots_with_metadata?${query}`);
    assert.equal(response.status, 400, `${query}: ${JSON.stringify(response.body)}`);
    assert.equal(response.body.code, 'FST_ERR_VALIDATION');
    return response.body.message as string;
  };

  const create = async (name: string, at: number, body: Record<string, unknown>, via: 'v2' | 'legacy' = 'legacy') => {
    nowMs = at;
    const response = via === 'legacy' ? await api.post('/bots', body) : await api.post('/v2/bots', body);
    assert.ok(response.status === 200 || response.status === 201, JSON.stringify(response.body));
    bots[name] = via === 'legacy' ? response.body.bot_id : response.body.data.bot_id;
    order.push(name);
  };
  const reportSpeakers = async (name: string, speakers: string[]) => {
    const { bot } = await takeBotToRun(t, bots[name]!);
    const response = await bot.report({ kind: 'participants', participants: speakers, speakers, at: new Date(nowMs).toISOString() });
    assert.equal(response.status, 204);
  };
  const remove = async (name: string, at: number) => {
    nowMs = at;
    const response = await request(t.url, 'DELETE', `/bots/${bots[name]}`, { headers: { 'x-service-api-key': apiKey } });
    assert.deepEqual(response.body, { ok: true });
  };

  before(async () => {
    t = await startTestService({ clock: () => new Date(nowMs) });
    const team = await createTeam(t.url, { tokens: 100 });
    apiKey = team.api_key;
    api = apiClient(t.url, apiKey);
    other = apiClient(t.url, (await createTeam(t.url)).api_key);
    await create('alice', minute(0), { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: "Alice's Notetaker", extra: { customer: 'Acme', deal: 42, region: 'eu' } });
    await create('bob', minute(1), { meeting_url: 'https://vc.localhost/j/111222333', bot_name: 'Bob Recorder', extra: { customer: 'acme', deal: 9 } }, 'v2');
    await create('zoe', minute(2), {
      meeting_url: 'https://meet.google.com/zoe-mmmm-zzz',
      bot_name: 'NOTETAKER Zoe\u0308',
      extra: { customer: 'Acme', url: 'https://crm.example.com/a?b=c', note: 'a,b', 'odd:field': 'yes', 'a.b': 'dotted' },
    });
    await create('plain', minute(3), { meeting_url: 'https://meet.google.com/pla-inpl-ain', bot_name: 'Plain' });
    await create('carol', minute(4), { meeting_url: 'https://meet.google.com/car-olca-rol', bot_name: 'Carol', extra: { deal: '100', flag: true, nested: { a: 1 } } }, 'v2');
    nowMs = minute(5);
    await reportSpeakers('alice', ['Ana María', 'Bruno']);
    await reportSpeakers('zoe', ['Zoë Quinn']);
    await remove('bob', minute(6));
    await remove('plain', minute(7));
    nowMs = minute(8);
    await other.post('/bots', { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: "Alice's Notetaker", extra: { customer: 'Acme' } });
    await other.post('/v2/bots', { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Their v2 bot' });
  });
  after(() => t.stop());

  it('lists every bot of the team, v2 and legacy alike, newest first, with every list-item field', async () => {
    const page = await list();
    assert.deepEqual(page.bots.map((b) => order[b.id - 1]), ['carol', 'plain', 'zoe', 'bob', 'alice']);
    assert.deepEqual(page.bots.map((b) => b.id), [5, 4, 3, 2, 1], 'integer ids in creation order, per team');
    assert.equal(page.next_cursor, null);
    const alice = page.bots.find((b) => b.id === 1);
    assert.match(alice.session_id, /^[0-9a-f-]{36}$/, 'it ran (its speakers come from its run): it has a session');
    assert.deepEqual(alice, {
      access_count: 0,
      bot_name: "Alice's Notetaker",
      created_at: new Date(minute(0)).toISOString(),
      duration: null,
      ended_at: null,
      extra: { customer: 'Acme', deal: 42, region: 'eu' },
      id: 1,
      last_accessed_at: null,
      meeting_url: 'https://meet.google.com/abc-defg-hij',
      session_id: alice.session_id,
      speakers: ['Ana María', 'Bruno'],
      uuid: bots.alice,
    });
    const bob = page.bots.find((b) => b.id === 2);
    assert.equal(bob.ended_at, new Date(minute(6)).toISOString());
    assert.equal(bob.duration, 0, 'ended without recording');
    assert.equal(page.last_updated, new Date(minute(7)).toISOString(), 'the newest change to any of the team’s bots');
  });

  it('bot_name and meeting_url: case-insensitive partial matches', async () => {
    assert.deepEqual(await names('bot_name=note'), ['zoe', 'alice']);
    assert.deepEqual(await names('bot_name=NOTETAKER'), ['zoe', 'alice']);
    assert.deepEqual(await names(`bot_name=${encodeURIComponent("alice's")}`), ['alice']);
    assert.deepEqual(await names(`bot_name=${encodeURIComponent('ZOË')}`), ['zoe'], 'folded and composed: Ë matches a decomposed ë');
    assert.deepEqual(await names('bot_name=nobody'), []);
    assert.deepEqual(await names('meeting_url=VC.LOCALHOST'), ['bob']);
    assert.deepEqual(await names('meeting_url=meet.google.com%2Fa'), ['alice']);
    assert.deepEqual(await names('meeting_url=google&bot_name=o'), ['carol', 'zoe', 'alice']);
    assert.deepEqual(await names(`bot_name=${encodeURIComponent('(.*)')}`), [], 'text, not a pattern');
  });

  it('speaker_name: case-insensitive partial match on any speaker', async () => {
    assert.deepEqual(await names('speaker_name=ana'), ['alice']);
    assert.deepEqual(await names(`speaker_name=${encodeURIComponent('MARÍA')}`), ['alice']);
    assert.deepEqual(await names('speaker_name=q'), ['zoe']);
    assert.deepEqual(await names('speaker_name=o'), ['zoe', 'alice']);
    assert.deepEqual(await names('speaker_name=xavier'), []);
  });

  it('created_after and created_before: inclusive bounds, without a zone read as UTC', async () => {
    assert.deepEqual(await names(`created_after=${zoneless(minute(1))}`), ['carol', 'plain', 'zoe', 'bob']);
    assert.deepEqual(await names(`created_before=${zoneless(minute(3))}`), ['plain', 'zoe', 'bob', 'alice']);
    assert.deepEqual(await names(`created_after=${zoneless(minute(1))}&created_before=${zoneless(minute(3))}`), ['plain', 'zoe', 'bob']);
    assert.deepEqual(await names(`created_after=${zoneless(minute(1))}&created_before=${zoneless(minute(1))}`), ['bob'], 'both bounds on one instant');
    assert.deepEqual(await names(`created_after=${zoneless(minute(1))}.001`), ['carol', 'plain', 'zoe']);
    assert.deepEqual(await names(`created_after=${zoneless(minute(1))}.0000001`), ['carol', 'plain', 'zoe'], 'beyond the stored precision, still after');
    assert.deepEqual(await names(`created_before=${zoneless(minute(1))}.9999`), ['bob', 'alice']);
    assert.deepEqual(await names('created_after=2026-03-03T09:01'), ['carol', 'plain', 'zoe', 'bob'], 'seconds may be left out');
    // The same instants written with a zone.
    assert.deepEqual(await names(`created_after=${zoneless(minute(1))}Z`), ['carol', 'plain', 'zoe', 'bob']);
    assert.deepEqual(await names(`created_after=${encodeURIComponent('2026-03-03T10:03:00+01:00')}`), ['carol', 'plain']);
    assert.deepEqual(await names(`created_before=${encodeURIComponent('2026-03-03T04:00:00-05:00')}`), ['alice']);
    assert.deepEqual(await names(`created_after=${zoneless(minute(4))}&created_before=${zoneless(minute(0))}`), [], 'crossed bounds match nothing');
    for (const bad of ['2026-03-03', '2026-02-30T00:00:00', '2026-03-03T24:00:00', '2026-03-03T09:00:60', 'yesterday', '2026-03-03 09:00:00', '1741000000', '2026-03-03T09:00:00+25:00']) {
      assert.match(await refused(`created_after=${encodeURIComponent(bad)}`), /^querystring\/created_after must be an ISO 8601 date-time/, bad);
    }
    assert.match(await refused('created_before=03/03/2026'), /^querystring\/created_before must be an ISO 8601 date-time/);
  });

  it('ended_after: bots ended at or after the instant; running bots have not ended', async () => {
    assert.deepEqual(await names(`ended_after=${zoneless(minute(6))}`), ['plain', 'bob']);
    assert.deepEqual(await names(`ended_after=${zoneless(minute(7))}`), ['plain']);
    assert.deepEqual(await names(`ended_after=${new Date(minute(7) + 1).toISOString()}`), []);
    assert.match(await refused('ended_after=later'), /^querystring\/ended_after must be an ISO 8601 date-time/);
  });

  it('filter_by_extra: field:value conditions, all must match, exact and case-sensitive, bots missing the field excluded', async () => {
    assert.deepEqual(await names('filter_by_extra=customer:Acme'), ['zoe', 'alice']);
    assert.deepEqual(await names('filter_by_extra=customer:acme'), ['bob']);
    assert.deepEqual(await names('filter_by_extra=customer:Acm'), [], 'exact, not partial');
    assert.deepEqual(await names('filter_by_extra=customer:Acme,deal:42'), ['alice']);
    assert.deepEqual(await names('filter_by_extra=region:eu'), ['alice']);
    assert.deepEqual(await names('filter_by_extra=region:us'), []);
    assert.deepEqual(await names('filter_by_extra=deal:100'), ['carol'], 'a string value');
    assert.deepEqual(await names('filter_by_extra=deal:9'), ['bob'], 'a number compares by its text');
    assert.deepEqual(await names('filter_by_extra=flag:true'), ['carol']);
    assert.deepEqual(await names(`filter_by_extra=${encodeURIComponent('nested:{"a":1}')}`), ['carol'], 'an object by its JSON');
    assert.deepEqual(await names('filter_by_extra=customer:Acme,customer:acme'), [], 'one field, two values: nothing');
    assert.deepEqual(await names('filter_by_extra=customer:Acme,customer:Acme'), ['zoe', 'alice']);
  });

  it('filter_by_extra: a value holding ":" as it is, a value holding "," escaped, a field holding ":" or "." escaped or as it is', async () => {
    assert.deepEqual(await names(`filter_by_extra=${encodeURIComponent('url:https://crm.example.com/a?b=c')}`), ['zoe']);
    assert.deepEqual(await names(`filter_by_extra=${encodeURIComponent('note:a\\,b')}`), ['zoe']);
    assert.deepEqual(await names(`filter_by_extra=${encodeURIComponent('note:a\\,b,customer:Acme')}`), ['zoe']);
    assert.deepEqual(await names(`filter_by_extra=${encodeURIComponent('odd\\:field:yes')}`), ['zoe']);
    assert.deepEqual(await names(`filter_by_extra=${encodeURIComponent('a.b:dotted')}`), ['zoe'], 'a dotted name is one field, not a path');
    assert.match(await refused(`filter_by_extra=${encodeURIComponent('note:a,b')}`), /^querystring\/filter_by_extra condition "b" must be field:value \(write a comma inside a value as \\, and a colon inside a field name as \\:\)$/);
    assert.match(await refused('filter_by_extra=customer'), /condition "customer" must be field:value/);
    assert.match(await refused('filter_by_extra=%3AAcme'), /condition "" must be field:value/);
    assert.match(await refused(`filter_by_extra=${encodeURIComponent('note:a\\')}`), /must not end in a lone backslash/);
    const many = Array.from({ length: 21 }, (_, i) => `f${i}:v`).join(',');
    assert.match(await refused(`filter_by_extra=${many}`), /must NOT have more than 20 conditions/);
  });

  it('sort_by_extra: string comparison after filtering, bots having the field first in both directions', async () => {
    // Texts "42", "9", "100": as strings "100" < "42" < "9". Without the field: plain, zoe (newest first).
    assert.deepEqual(await names('sort_by_extra=deal'), ['carol', 'alice', 'bob', 'plain', 'zoe']);
    assert.deepEqual(await names('sort_by_extra=deal:asc'), ['carol', 'alice', 'bob', 'plain', 'zoe']);
    assert.deepEqual(await names('sort_by_extra=deal:desc'), ['bob', 'alice', 'carol', 'plain', 'zoe']);
    assert.deepEqual(await names('filter_by_extra=customer:Acme&sort_by_extra=deal:desc'), ['alice', 'zoe']);
    assert.deepEqual(await names('bot_name=o&sort_by_extra=customer'), ['zoe', 'alice', 'bob', 'carol']);
    assert.deepEqual(await names(`sort_by_extra=${encodeURIComponent('odd\\:field:desc')}`), ['zoe', 'carol', 'plain', 'bob', 'alice']);
    for (const bad of ['deal:sideways', 'deal:asc:desc', ':asc', 'deal,customer']) {
      assert.match(await refused(`sort_by_extra=${encodeURIComponent(bad)}`), /^querystring\/sort_by_extra must be field, field:asc or field:desc/, bad);
    }
  });

  it('limit: 1 to 50, default 10', async () => {
    const busy = apiClient(t.url, (await createTeam(t.url, { tokens: 100 })).api_key);
    for (let i = 0; i < 12; i++) assert.equal((await busy.post('/bots', { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: `Busy ${i}` })).status, 200);
    const first = (await busy.get('/bots/bots_with_metadata')).body;
    assert.equal(first.bots.length, 10);
    assert.deepEqual(first.bots.map((b: { id: number }) => b.id), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    assert.equal(typeof first.next_cursor, 'string');
    assert.equal((await busy.get('/bots/bots_with_metadata?limit=50')).body.bots.length, 12);
    assert.deepEqual(await names('limit=1'), ['carol']);
    assert.deepEqual(await names('limit=00001'), ['carol'], 'leading zeros are digits too');
    for (const bad of ['0', '51', '-1', 'ten', '1.5', '1e1', ' 5', '+5', '0x10', '99999', '9'.repeat(400)]) {
      assert.equal(await refused(`limit=${encodeURIComponent(bad)}`), 'querystring/limit must be an integer from 1 to 50', bad);
    }
  });

  it('cursor: pages through every bot exactly once, for any page size, and only for the query it came from', async () => {
    for (const query of ['', 'sort_by_extra=deal:desc', 'sort_by_extra=customer', 'bot_name=o&sort_by_extra=deal']) {
      const all = await names(query);
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        for (let pages = 0; pages < 10; pages++) {
          const page: { bots: { id: number }[]; next_cursor: string | null } = await list(
            [query, `limit=${limit}`, cursor ? `cursor=${cursor}` : ''].filter((p) => p !== '').join('&'),
          );
          seen.push(...page.bots.map((b) => order[b.id - 1]!));
          cursor = page.next_cursor;
          if (cursor === null) break;
          assert.match(cursor, /^[A-Za-z0-9_-]+$/, 'base64 that goes into a URL as it is');
        }
        assert.deepEqual(seen, all, `${query} limit ${limit}`);
      }
    }
    const { next_cursor } = await list('sort_by_extra=deal&limit=2');
    assert.ok(next_cursor);
    assert.deepEqual(await names(`sort_by_extra=deal&limit=10&cursor=${next_cursor}`), ['bob', 'plain', 'zoe'], 'the page size may change');
    assert.match(await refused(`sort_by_extra=deal:desc&cursor=${next_cursor}`), /^querystring\/cursor was returned for another query/);
    assert.match(await refused(`cursor=${next_cursor}`), /^querystring\/cursor was returned for another query/);
    assert.match(await refused(`sort_by_extra=deal&bot_name=o&cursor=${next_cursor}`), /^querystring\/cursor was returned for another query/);
    assert.match(await refused('cursor=not-a-cursor'), /^querystring\/cursor is not a cursor returned by this API/);
    assert.match(await refused(`cursor=${Buffer.from('{"q":1}').toString('base64url')}`), /is not a cursor returned by this API/);
    const theirs = (await other.get('/bots/bots_with_metadata?limit=1')).body;
    assert.match(await refused(`limit=1&cursor=${theirs.next_cursor}`), /^querystring\/cursor was returned for another query/, 'another team’s cursor');
    assert.deepEqual(await names('cursor='), await names(), 'an empty cursor is the first page');
  });

  it('refuses unknown and repeated parameters, and never shows another team’s bots', async () => {
    assert.match(await refused('status=completed'), /^querystring\/status is not an allowed parameter/);
    assert.match(await refused('botname=x'), /^querystring\/botname is not an allowed parameter/);
    assert.equal(await refused('limit=1&limit=2'), 'querystring/limit must be given at most once');
    assert.equal(await refused('bot_name=a&bot_name=b'), 'querystring/bot_name must be given at most once');
    assert.match(await refused(`bot_name=${'x'.repeat(2049)}`), /must NOT have more than 2048 characters/);
    const theirs = (await other.get('/bots/bots_with_metadata')).body.bots;
    assert.deepEqual(theirs.map((b: { id: number; bot_name: string }) => [b.id, b.bot_name]), [[2, 'Their v2 bot'], [1, "Alice's Notetaker"]]);
    const ours = (await list()).bots.map((b) => b.uuid);
    assert.ok(!theirs.some((b: { uuid: string }) => ours.includes(b.uuid)));
  });
});
