import assert from 'node:assert/strict';
import type { RecordedEvent } from '../../src/adapters/event-store/port';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import { asBot } from '../support/as-bot';
import { readUntil } from '../support/read-until';
import { adminClient, apiClient, createTeam, MEETING, request } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

type Api = ReturnType<typeof apiClient>;

const MINUTE = 60_000;

describe('scheduled bots over HTTP (injected clock)', () => {
  let now = new Date(Date.UTC(2026, 2, 2, 9, 0, 0));
  /** What the service reads: the fixed `now`, or (for a race) a clock that runs. */
  let clock: () => Date = () => now;
  let t: TestService;
  let launcher: ScriptedLauncher;

  before(async () => {
    launcher = new ScriptedLauncher();
    // A short orphan grace: a scheduled bot's reservation must not be taken for an orphan's.
    t = await startTestService({ clock: () => clock(), botSlots: 100, overrides: { launcher, orphanReservationGraceMs: 200, webhookDelivery: { pollMs: 20, timeoutMs: 1500 } } });
  });
  after(() => t.stop());

  const inMinutes = (minutes: number) => new Date(now.getTime() + minutes * MINUTE).toISOString();
  /** Moves the clock so that a bot due at `joinAt` is due now (its queueing time, plus `extraMs`). */
  const moveTo = (joinAt: string, extraMs = 0) => {
    now = new Date(Date.parse(joinAt) - SCHEDULED_BOT_LEAD_MS + extraMs);
  };
  const newTeam = async (team: Parameters<typeof createTeam>[1] = {}) => {
    const created = await createTeam(t.url, team);
    return { ...created, api: apiClient(t.url, created.api_key) };
  };
  const schedule = async (api: Api, joinAt: string, body: Record<string, unknown> = {}) => {
    const response = await api.post('/v2/bots/scheduled', { meeting_url: MEETING, bot_name: 'Later', join_at: joinAt, ...body });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    return response.body.data.bot_id as string;
  };
  const bot = async (api: Api, botId: string) => (await api.get(`/v2/bots/${botId}`)).body.data;
  const waitForStatus = (api: Api, botId: string, status: string) => readUntil(() => bot(api, botId), (b) => b.status === status);
  const botEvents = async (botId: string) => t.service.eventStore.readStream(`bot-${botId}`);
  const types = (events: readonly RecordedEvent[]) => events.map((e) => e.type);
  const ledgerOf = async (teamId: string, botId: string) =>
    (await t.service.eventStore.readStream(`team-${teamId}`)).filter((e) => e.data.bot_id === botId);
  const team = async (teamId: string) => (await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data;
  const launched = (botId: string) => launcher.launches.some((l) => l.job.bot_id === botId);

  describe('scheduling', () => {
    it('answers 201 with the bot id; the bot exists at once with status scheduled and its join_at, reserving nothing', async () => {
      const { api, team_id } = await newTeam({ tokens: 0.5, daily_bot_cap: 1 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt, { extra: { deal: 7 } });

      const details = await bot(api, botId);
      assert.equal(details.status, 'scheduled');
      assert.equal(details.join_at, joinAt);
      assert.deepEqual(details.extra, { deal: 7 });
      assert.deepEqual(details.status_history, [{ status: 'scheduled', created_at: now.toISOString() }]);
      const record = (await api.get(`/v2/bots/scheduled/${botId}`)).body.data;
      assert.deepEqual(
        { bot_id: record.bot_id, status: record.status, join_at: record.join_at, bot_name: record.bot_name, meeting_url: record.meeting_url },
        { bot_id: botId, status: 'scheduled', join_at: joinAt, bot_name: 'Later', meeting_url: MEETING },
      );

      // Neither tokens nor the daily cap are touched when scheduling: a second and third bot fit a cap of 1.
      await schedule(api, inMinutes(20));
      await schedule(api, inMinutes(30));
      assert.deepEqual(await ledgerOf(team_id, botId), []);
      const ledger = await team(team_id);
      assert.equal(ledger.reserved, 0);
      assert.equal(ledger.bots_last_24h, 0);
      assert.deepEqual(types(await botEvents(botId)), ['BotScheduled']);
      assert.equal(launched(botId), false);
    });

    it('a join_at given with an offset is kept as the same instant in UTC', async () => {
      const { api } = await newTeam();
      const local = new Date(now.getTime() + 90 * MINUTE);
      const withOffset = `${new Date(local.getTime() + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
      const botId = await schedule(api, withOffset);
      assert.equal((await bot(api, botId)).join_at, local.toISOString().replace(/\.\d{3}Z$/, '.000Z'));
    });

    it('refuses a join_at that is missing, not a zoned ISO 8601 time, not in the future, or more than a year ahead', async () => {
      const { api } = await newTeam();
      const cases: [unknown, string][] = [
        [undefined, 'body/join_at is required'],
        [1767261600000, 'body/join_at must be string'],
        ['2026-03-02T10:00:00', 'body/join_at must be an ISO 8601 date-time with its time zone'],
        ['2026-03-02', 'body/join_at must be an ISO 8601 date-time with its time zone'],
        ['tomorrow', 'body/join_at must be an ISO 8601 date-time with its time zone'],
        ['2026-02-30T10:00:00Z', 'body/join_at must be an ISO 8601 date-time with its time zone'],
        [now.toISOString(), 'body/join_at must be in the future'],
        [inMinutes(-1), 'body/join_at must be in the future'],
        [new Date(now.getTime() + 366 * 24 * 60 * MINUTE).toISOString(), 'body/join_at must be at most one year ahead'],
      ];
      for (const [joinAt, message] of cases) {
        const response = await api.post('/v2/bots/scheduled', { meeting_url: MEETING, bot_name: 'Later', ...(joinAt === undefined ? {} : { join_at: joinAt }) });
        assert.equal(response.status, 400, JSON.stringify(joinAt));
        assert.equal(response.body.code, 'FST_ERR_VALIDATION');
        assert.ok(response.body.message.startsWith(message), `${JSON.stringify(joinAt)}: ${response.body.message}`);
      }
    });

    it('every other field is refused exactly as POST /v2/bots refuses it, options not delivered yet included', async () => {
      const { api } = await newTeam();
      const bodies: Record<string, unknown>[] = [
        { meeting_url: MEETING },
        { meeting_url: 'http://meet.google.com/abc-defg-hij', bot_name: 'x' },
        { meeting_url: MEETING, bot_name: 'x'.repeat(256) },
        { meeting_url: MEETING, bot_name: 'x', silence_timout: 5 },
        { meeting_url: MEETING, bot_name: 'x', bot_image: 'http://example.com/a.png' },
        { meeting_url: MEETING, bot_name: 'x', transcription_enabled: true, transcription_config: { provider: 'gladia' } },
        { meeting_url: MEETING, bot_name: 'x', streaming_enabled: true },
        { meeting_url: MEETING, bot_name: 'x', callback_enabled: true },
      ];
      for (const body of bodies) {
        const single = await api.post('/v2/bots', body);
        const scheduled = await api.post('/v2/bots/scheduled', { ...body, join_at: inMinutes(5) });
        assert.ok(single.status >= 400, JSON.stringify(body));
        assert.deepEqual({ status: scheduled.status, body: scheduled.body }, { status: single.status, body: single.body }, JSON.stringify(body));
      }
    });

    it('GET /v2/bots/scheduled lists the team’s waiting bots soonest first, page by page; other teams see none', async () => {
      const { api } = await newTeam();
      const times = [50, 10, 30, 20, 40].map((m) => inMinutes(m));
      const ids = new Map<string, string>();
      for (const joinAt of times) ids.set(joinAt, await schedule(api, joinAt));
      const cancelled = await schedule(api, inMinutes(15));
      assert.equal((await api.delete(`/v2/bots/scheduled/${cancelled}`)).status, 200);
      await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Now' });

      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 5; page++) {
        const response = await api.get(`/v2/bots/scheduled?limit=2&cursor=${cursor}`);
        assert.equal(response.status, 200);
        seen.push(...response.body.data.bots.map((b: { join_at: string; status: string }) => (assert.equal(b.status, 'scheduled'), b.join_at)));
        cursor = response.body.data.next_cursor;
        if (cursor === null) break;
      }
      assert.deepEqual(seen, [...times].sort());

      const other = await newTeam();
      assert.deepEqual((await other.api.get('/v2/bots/scheduled')).body.data, { bots: [], next_cursor: null });
      assert.equal((await other.api.get(`/v2/bots/scheduled/${ids.get(times[0]!)}`)).status, 404);
      assert.equal((await other.api.get(`/v2/bots/${ids.get(times[0]!)}`)).status, 404);
    });

    it('a bot created to join at once is not a scheduled bot: 404 on the scheduled routes', async () => {
      const { api } = await newTeam();
      const botId = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Now' })).body.data.bot_id;
      for (const response of [await api.get(`/v2/bots/scheduled/${botId}`), await api.patch(`/v2/bots/scheduled/${botId}`, { bot_name: 'x' }), await api.delete(`/v2/bots/scheduled/${botId}`)]) {
        assert.equal(response.status, 404);
        assert.equal(response.body.code, 'FST_ERR_BOT_NOT_FOUND');
      }
      assert.equal((await bot(api, botId)).join_at, null);
    });
  });

  describe('at its time', () => {
    it('is queued like a new bot: reservation, meeting registration and BotCreated at its queueing time, then it runs', async () => {
      const { api, team_id } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt, { bot_name: 'On Time', entry_message: 'hello' });
      // The team's settings are fixed into the bot when it is queued, as into a bot created then.
      const retention = await request(t.url, 'PUT', `/admin/teams/${team_id}/retention`, { body: { retention_days: 30 }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(retention.status, 200, JSON.stringify(retention.body));

      moveTo(joinAt, -1000);
      await new Promise((r) => setTimeout(r, 600));
      assert.equal((await bot(api, botId)).status, 'scheduled', 'not before its queueing time');

      moveTo(joinAt);
      const launch = await launcher.waitForLaunch(botId);
      assert.equal(launch.job.bot_name, 'On Time');
      assert.equal(launch.job.entry_message, 'hello');
      const queuedAt = new Date(Date.parse(joinAt) - SCHEDULED_BOT_LEAD_MS).toISOString();
      assert.deepEqual(types(await botEvents(botId)).slice(0, 3), ['BotScheduled', 'BotCreated', 'BotDispatched']);
      assert.equal((await botEvents(botId))[1]!.data.created_at, queuedAt);
      assert.equal(((await botEvents(botId))[1]!.data.config as { retention_days: number }).retention_days, 30);
      assert.deepEqual((await ledgerOf(team_id, botId)).map((e) => [e.type, e.data.at]), [['TokensReserved', queuedAt]]);
      const details = await readUntil(() => bot(api, botId), (b) => b.status_history.length >= 2);
      assert.deepEqual(details.status_history.slice(0, 2), [
        { status: 'scheduled', created_at: details.created_at },
        { status: 'queued', created_at: queuedAt },
      ]);
      assert.equal(details.join_at, joinAt);
      assert.equal((await team(team_id)).bots_last_24h, 1, 'it counts towards the daily cap from its queueing');

      // It is a bot like any other now: it reports, ends, and its tokens are settled.
      await asBot(launch).status('joining_call');
      await asBot(launch).report({ kind: 'end', outcome: 'failed', error_code: 'CANNOT_JOIN_MEETING', error_message: 'no such meeting', recorded_seconds: 0, waiting_room_seconds: 0, at: now.toISOString() });
      await waitForStatus(api, botId, 'failed');
      const settled = await readUntil(() => ledgerOf(team_id, botId), (l) => l.length === 2);
      assert.deepEqual(settled.map((e) => e.type), ['TokensReserved', 'TokensReleased']);
      assert.equal((await api.get(`/v2/bots/scheduled`)).body.data.bots.some((b: { bot_id: string }) => b.bot_id === botId), false);
    });

    it('its queueing reservation is never released as an orphan while the bot runs (grace period long past)', async () => {
      const { api, team_id } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt);
      moveTo(joinAt);
      await launcher.waitForLaunch(botId);
      now = new Date(now.getTime() + 10 * MINUTE);
      await new Promise((r) => setTimeout(r, 600)); // several sweeps of the reconciler (grace 200 ms)
      assert.deepEqual((await ledgerOf(team_id, botId)).map((e) => e.type), ['TokensReserved']);
    });

    const refusedAtItsTime = async (api: Api, teamId: string, botId: string, joinAt: string, code: string) => {
      moveTo(joinAt);
      const ended = await waitForStatus(api, botId, 'failed');
      assert.equal(ended.error_code, code, JSON.stringify(ended));
      assert.ok(ended.error_message.length > 0);
      assert.deepEqual(ended.status_history.map((s: { status: string }) => s.status), ['scheduled', 'failed']);
      const events = await botEvents(botId);
      assert.deepEqual(types(events), ['BotScheduled', 'BotFailed'], 'a BotFailed, which the webhook sender turns into bot.failed');
      assert.equal(events[1]!.data.error_code, code);
      assert.equal(launched(botId), false);
      // Whatever the queueing took is back (only the other bot holds a reservation), and it does not count
      // towards the daily cap.
      const ledger = await team(teamId);
      assert.equal(ledger.reserved, 0.5);
      return ledger;
    };

    it('a daily cap reached by its time (not when it was scheduled): failed with DAILY_BOT_CAP_REACHED', async () => {
      const { api, team_id } = await newTeam({ tokens: 5, daily_bot_cap: 1 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt);
      const first = await api.post('/v2/bots', { meeting_url: 'https://meet.google.com/aaa-bbbb-ccc', bot_name: 'Now' });
      assert.equal(first.status, 201, 'scheduling took nothing of the cap');
      const ledger = await refusedAtItsTime(api, team_id, botId, joinAt, 'DAILY_BOT_CAP_REACHED');
      assert.equal(ledger.bots_last_24h, 1);
      assert.deepEqual(await ledgerOf(team_id, botId), []);
    });

    it('tokens run out by its time: failed with INSUFFICIENT_TOKENS', async () => {
      const { api, team_id } = await newTeam({ tokens: 0.5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt);
      assert.equal((await api.post('/v2/bots', { meeting_url: 'https://meet.google.com/aaa-bbbb-ccc', bot_name: 'Now' })).status, 201);
      await refusedAtItsTime(api, team_id, botId, joinAt, 'INSUFFICIENT_TOKENS');
      assert.deepEqual(await ledgerOf(team_id, botId), []);
    });

    it('a bot for the same meeting by then, and allow_multiple_bots false: failed with BOT_ALREADY_EXISTS; its reservation goes back', async () => {
      const { api, team_id } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt, { allow_multiple_bots: false });
      now = new Date(Date.parse(joinAt) - 2 * MINUTE);
      assert.equal((await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Now' })).status, 201);
      const ledger = await refusedAtItsTime(api, team_id, botId, joinAt, 'BOT_ALREADY_EXISTS');
      assert.equal(ledger.bots_last_24h, 1, 'the refused bot is not counted');
      assert.deepEqual((await ledgerOf(team_id, botId)).map((e) => [e.type, e.data.reason]), [['TokensReserved', undefined], ['TokensReleased', 'creation_aborted']]);
    });
  });

  describe('cancelling', () => {
    it('DELETE before its time ends it cancelled (EXITING_MEETING_BEFORE_RECORD) in its details and the list; it never takes a token nor runs', async () => {
      const { api, team_id } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt);
      const cancelled = await api.delete(`/v2/bots/scheduled/${botId}`);
      assert.equal(cancelled.status, 200);
      assert.deepEqual(cancelled.body.data, { bot_id: botId, message: 'The scheduled bot was cancelled' });
      const details = await bot(api, botId);
      assert.equal(details.status, 'cancelled');
      assert.equal(details.error_code, 'EXITING_MEETING_BEFORE_RECORD');
      assert.deepEqual(details.status_history.map((s: { status: string }) => s.status), ['scheduled', 'cancelled']);
      const listed = (await api.get('/v2/bots')).body.data.bots.find((b: { bot_id: string }) => b.bot_id === botId);
      assert.deepEqual([listed.status, listed.error_code], ['cancelled', 'EXITING_MEETING_BEFORE_RECORD']);

      moveTo(joinAt, MINUTE);
      await new Promise((r) => setTimeout(r, 600));
      assert.deepEqual(types(await botEvents(botId)), ['BotScheduled', 'BotFailed']);
      assert.deepEqual(await ledgerOf(team_id, botId), []);
      assert.equal(launched(botId), false);
      assert.equal((await api.delete(`/v2/bots/scheduled/${botId}`)).status, 409, 'a second cancel');
      assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 409, 'it has ended');
    });

    it('leave on a scheduled bot that has not started cancels it the same way', async () => {
      const { api, team_id } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt);
      const left = await api.post(`/v2/bots/${botId}/leave`);
      assert.equal(left.status, 200);
      assert.equal(left.body.data.message, 'The scheduled bot was cancelled before its time');
      const details = await bot(api, botId);
      assert.deepEqual([details.status, details.error_code], ['cancelled', 'EXITING_MEETING_BEFORE_RECORD']);
      moveTo(joinAt);
      await new Promise((r) => setTimeout(r, 600));
      assert.deepEqual(await ledgerOf(team_id, botId), []);
      assert.equal(launched(botId), false);
    });

    /**
     * 30 bots due 40 ms apart; the clock runs from here: bot i falls due about 300 + 40 i ms from now (the
     * scheduler starts each a queueing's cost early), and its cancel goes out between 120 ms before and
     * 80 ms after, so that each one is a real race with the scheduler. Answers once nothing waits.
     */
    const raceTheStart = async (cancel: (api: Api, botId: string) => Promise<{ status: number; body: any }>) => {
      const { api, team_id } = await newTeam({ tokens: 50 });
      const BOTS = 30;
      const SPACING_MS = 40;
      const first = Date.parse(inMinutes(10));
      const botIds: string[] = [];
      for (let i = 0; i < BOTS; i++) botIds.push(await schedule(api, new Date(first + i * SPACING_MS).toISOString(), { bot_name: `Racer ${i}` }));
      const offset = first - SCHEDULED_BOT_LEAD_MS - 300 - Date.now();
      clock = () => new Date(Date.now() + offset);
      const answers = await Promise.all(
        botIds.map(async (id, i) => {
          await new Promise((r) => setTimeout(r, 300 + i * SPACING_MS - 120 + Math.random() * 200));
          return cancel(api, id);
        }),
      );
      await readUntil(async () => t.service.scheduler.waitingCount, (n) => n === 0);
      now = clock();
      clock = () => now;
      return { team_id, botIds, answers };
    };

    it('a cancel racing the start: for every bot exactly one wins, and the loser leaves nothing behind', async function () {
      this.timeout(60_000);
      const { team_id, botIds, answers: responses } = await raceTheStart((api, id) => api.delete(`/v2/bots/scheduled/${id}`));
      const answers = responses.map((r) => r.status);
      let cancelled = 0;
      for (const [i, id] of botIds.entries()) {
        const events = types(await botEvents(id));
        const ledger = (await ledgerOf(team_id, id)).map((e) => e.type);
        if (answers[i] === 200) {
          cancelled += 1;
          assert.equal(events.includes('BotCreated'), false, `${id}: cancelled, never queued (${events})`);
          assert.equal(events.filter((e) => e === 'BotFailed').length, 1);
          assert.ok(ledger.length === 0 || (ledger.length === 2 && ledger[1] === 'TokensReleased'), `${id}: nothing reserved is kept (${ledger})`);
          assert.equal(launched(id), false);
        } else {
          assert.equal(answers[i], 409, `${id}: the start won (${answers[i]})`);
          assert.deepEqual(events.slice(0, 2), ['BotScheduled', 'BotCreated']);
          assert.deepEqual(ledger, ['TokensReserved']);
          await launcher.waitForLaunch(id);
        }
      }
      const reserved = Math.round((await team(team_id)).reserved * 1000);
      assert.equal(reserved, (botIds.length - cancelled) * 500, 'exactly the started bots hold a reservation');
      console.log(`      (${cancelled} of ${botIds.length} cancels won the race)`);
    });

    it('leave racing the start: for every bot either the cancel or the start is recorded, never both', async function () {
      this.timeout(60_000);
      const { team_id, botIds, answers } = await raceTheStart((api, id) => api.post(`/v2/bots/${id}/leave`));
      let cancelled = 0;
      for (const [i, id] of botIds.entries()) {
        // Leave is always accepted: before the start it cancels, after it the started bot is asked to leave.
        assert.equal(answers[i]!.status, 200, `${id}: ${JSON.stringify(answers[i]!.body)}`);
        const events = await botEvents(id);
        const failures = events.filter((e) => e.type === 'BotFailed');
        assert.ok(failures.length <= 1, `${id}: ended once (${types(events)})`);
        if (answers[i]!.body.data.message === 'The scheduled bot was cancelled before its time') {
          cancelled += 1;
          assert.deepEqual(types(events), ['BotScheduled', 'BotFailed'], `${id}: cancelled, never queued`);
          assert.equal(failures[0]!.data.error_message, 'The scheduled bot was cancelled before its time.');
          const ledger = (await ledgerOf(team_id, id)).map((e) => e.type);
          assert.ok(ledger.length === 0 || (ledger.length === 2 && ledger[1] === 'TokensReleased'), `${id}: nothing reserved is kept (${ledger})`);
          assert.equal(launched(id), false);
        } else {
          assert.deepEqual(types(events).slice(0, 2), ['BotScheduled', 'BotCreated'], `${id}: the start won`);
          // Queued and then asked to leave: it ended before being handed to a slot, or it was told to leave.
          const asked = events.some((e) => e.type === 'BotLeaveRequested');
          const endedUnstarted = failures.length === 1 && failures[0]!.data.error_message === 'The bot was asked to leave before it joined the meeting.';
          assert.ok(asked !== endedUnstarted, `${id}: ${types(events)}`);
        }
      }
      console.log(`      (${cancelled} of ${botIds.length} leaves cancelled before the start)`);
    });

    it('concurrent cancels of one scheduled bot (DELETE, leave, DELETE at once): exactly one cancels it', async () => {
      const { api, team_id } = await newTeam({ tokens: 5 });
      for (let round = 0; round < 10; round++) {
        const botId = await schedule(api, inMinutes(10 + round));
        const [first, second, third] = await Promise.all([
          api.delete(`/v2/bots/scheduled/${botId}`),
          api.post(`/v2/bots/${botId}/leave`),
          api.delete(`/v2/bots/scheduled/${botId}`),
        ]);
        const statuses = [first.status, second.status, third.status];
        assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${statuses}`);
        assert.equal(statuses.filter((s) => s === 409).length, 2, `round ${round}: ${statuses}`);
        assert.deepEqual(types(await botEvents(botId)), ['BotScheduled', 'BotFailed']);
        assert.deepEqual(await ledgerOf(team_id, botId), []);
      }
    });
  });

  describe('changing it (PATCH) before its time', () => {
    it('moves join_at: not queued at the old time, queued at the new one', async () => {
      const { api } = await newTeam({ tokens: 5 });
      const oldJoinAt = inMinutes(10);
      const newJoinAt = inMinutes(20);
      const botId = await schedule(api, oldJoinAt);
      const patched = await api.patch(`/v2/bots/scheduled/${botId}`, { join_at: newJoinAt });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.data.join_at, newJoinAt);
      assert.equal((await bot(api, botId)).join_at, newJoinAt);

      moveTo(oldJoinAt, 1000);
      await new Promise((r) => setTimeout(r, 600));
      assert.equal((await bot(api, botId)).status, 'scheduled');
      moveTo(newJoinAt);
      await launcher.waitForLaunch(botId);
      assert.equal((await waitForStatus(api, botId, 'queued')).status, 'queued');
    });

    it('changes fields: the bot runs with the new ones; fields not named keep theirs, the callback secret included', async () => {
      const { api } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt, {
        bot_name: 'Before',
        entry_message: 'kept',
        timeout_config: { silence_timeout: 120 },
        callback_enabled: true,
        callback_config: { url: 'https://hooks.example.com/cb', secret: 'cb-secret-1' },
      });
      const patched = await api.patch(`/v2/bots/scheduled/${botId}`, { bot_name: 'After', timeout_config: { waiting_room_timeout: 30 }, extra: { v: 2 } });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.data.bot_name, 'After');
      assert.deepEqual(patched.body.data.extra, { v: 2 });

      const [scheduled, changed] = await botEvents(botId);
      assert.equal(changed!.type, 'BotScheduleChanged');
      const config = changed!.data.config as Record<string, any>;
      assert.deepEqual(config.callback, (scheduled!.data.config as Record<string, any>).callback, 'the same sealed secret');
      assert.equal(config.entry_message, 'kept');
      assert.deepEqual(config.timeouts, { grace_period: 0, no_one_joined_timeout: 600, silence_timeout: 600, waiting_room_timeout: 30, max_recording_duration: null });

      moveTo(joinAt);
      const launch = await launcher.waitForLaunch(botId);
      assert.equal(launch.job.bot_name, 'After');
      assert.equal(launch.job.timeout_config.waiting_room_timeout, 30);
    });

    it('refuses what a new request would refuse, and a change after the start', async () => {
      const { api } = await newTeam({ tokens: 5 });
      const joinAt = inMinutes(10);
      const botId = await schedule(api, joinAt);
      const refusals: [unknown, number, string][] = [
        [{ bot_nam: 'typo' }, 400, 'body/bot_nam is not an allowed property'],
        [{ join_at: inMinutes(-5) }, 400, 'body/join_at must be in the future'],
        [{ join_at: '2026-03-02 10:00' }, 400, 'body/join_at must be an ISO 8601 date-time'],
        [{ bot_name: '' }, 400, 'body/bot_name must NOT have fewer than 1 characters'],
        [{ tm_config: { fallback: 'anonymous' } }, 400, 'body/tm_config is only allowed for tm meetings'],
        [{ meeting_url: 'https://example.com/x' }, 400, 'body/meeting_url INVALID_MEETING_URL'],
        [[1, 2], 400, 'body must be object'],
      ];
      for (const [patch, status, message] of refusals) {
        const response = await api.patch(`/v2/bots/scheduled/${botId}`, patch);
        assert.equal(response.status, status, JSON.stringify(patch));
        assert.ok(response.body.message.startsWith(message), `${JSON.stringify(patch)}: ${response.body.message}`);
      }
      assert.deepEqual(types(await botEvents(botId)), ['BotScheduled'], 'nothing changed');

      moveTo(joinAt);
      await launcher.waitForLaunch(botId);
      const late = await api.patch(`/v2/bots/scheduled/${botId}`, { bot_name: 'Too late' });
      assert.equal(late.status, 409);
      assert.equal(late.body.code, 'FST_ERR_BOT_STATUS');
      const lateCancel = await api.delete(`/v2/bots/scheduled/${botId}`);
      assert.equal(lateCancel.status, 409);
      assert.equal((await api.get(`/v2/bots/scheduled/${botId}`)).body.data.status, 'queued', 'still a scheduled bot’s record, now queued');
    });
  });

  describe('webhooks', () => {
    it('a bot refused at its time and a bot cancelled before it each send bot.failed with their status (failed, cancelled), code, message and extra', async () => {
      const receiver = await new WebhookReceiver().start();
      try {
        const { api, api_key } = await newTeam({ tokens: 0 });
        assert.equal((await api.post('/v2/webhooks', { url: receiver.url })).status, 201);
        const joinAt = inMinutes(10);
        const refused = await schedule(api, joinAt, { extra: { deal: 1 } });
        const cancelled = await schedule(api, joinAt, { extra: { deal: 2 } });
        assert.equal((await api.delete(`/v2/bots/scheduled/${cancelled}`)).status, 200);
        moveTo(joinAt);
        await waitForStatus(api, refused, 'failed');
        const failures = await receiver.waitFor((r) => r.filter((w) => w.body.event === 'bot.failed').length >= 2);
        const byBot = new Map(failures.filter((w) => w.body.event === 'bot.failed').map((w) => [w.body.data.bot_id, w.body.data]));
        const cancelledAt = (await bot(api, cancelled)).ended_at;
        assert.deepEqual(byBot.get(cancelled), {
          bot_id: cancelled,
          extra: { deal: 2 },
          status: { code: 'cancelled', created_at: cancelledAt },
          error_code: 'EXITING_MEETING_BEFORE_RECORD',
          error_message: 'The scheduled bot was cancelled before its time.',
        });
        assert.deepEqual(byBot.get(refused), {
          bot_id: refused,
          extra: { deal: 1 },
          status: { code: 'failed', created_at: (await bot(api, refused)).ended_at },
          error_code: 'INSUFFICIENT_TOKENS',
          error_message: 'Insufficient tokens to reserve for a new bot',
        });
        assert.deepEqual(receiver.events().filter((e) => e !== 'bot.failed'), [], 'a bot that never ran sends no status change');
        assert.ok(failures.every((w) => w.headers['x-service-api-key'] === api_key), 'signed off with the key that scheduled them');

        // Its final event can be sent again, like any bot's.
        assert.equal((await api.post(`/v2/bots/${cancelled}/resend-webhook`)).status, 200);
        const again = await receiver.waitFor((r) => r.filter((w) => w.body.data?.bot_id === cancelled).length >= 2);
        assert.equal(again.filter((w) => w.body.data?.bot_id === cancelled).at(-1)!.body.data.error_code, 'EXITING_MEETING_BEFORE_RECORD');
      } finally {
        await receiver.stop();
      }
    });
  });

  describe('Sending Access keys', () => {
    it('may schedule (single and batch) but not read, change or cancel', async () => {
      const owner = await newTeam();
      const issued = await adminClient(t.url).post(`/admin/teams/${owner.team_id}/api-keys`, { permission: 'sending' });
      const sending = apiClient(t.url, issued.body.data.api_key);
      const single = await sending.post('/v2/bots/scheduled', { meeting_url: MEETING, bot_name: 'Sent', join_at: inMinutes(10) });
      assert.equal(single.status, 201);
      const batch = await sending.post('/v2/bots/scheduled/batch', [{ meeting_url: MEETING, bot_name: 'Sent', join_at: inMinutes(10) }]);
      assert.equal(batch.status, 200);
      const botId = single.body.data.bot_id;
      for (const response of [
        await sending.get('/v2/bots/scheduled'),
        await sending.get(`/v2/bots/scheduled/${botId}`),
        await sending.patch(`/v2/bots/scheduled/${botId}`, { bot_name: 'x' }),
        await sending.delete(`/v2/bots/scheduled/${botId}`),
      ]) {
        assert.deepEqual(response.body, { success: false, error: 'Forbidden', code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', statusCode: 403 });
      }
    });
  });
});
