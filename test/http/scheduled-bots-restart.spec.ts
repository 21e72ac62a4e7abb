import assert from 'node:assert/strict';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import { readUntil } from '../support/read-until';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();

describe('scheduled bots across restarts (the schedule lives in the event log)', () => {
  let now = new Date(T0);
  let t: TestService;
  const launcher = new ScriptedLauncher();

  before(async () => {
    t = await startTestService({ clock: () => now, botSlots: 10, overrides: { launcher } });
  });
  after(() => t.stop());

  it('before its time a restart changes nothing; after it, a bot less than 5 minutes late starts at once, a later one fails with SCHEDULED_TIME_MISSED', async () => {
    const team = await createTeam(t.url, { tokens: 10 });
    let api = apiClient(t.url, team.api_key);
    const schedule = async (joinAt: string, bot_name: string) => {
      const response = await api.post('/v2/bots/scheduled', { meeting_url: MEETING, bot_name, join_at: joinAt });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body.data.bot_id as string;
    };
    const missed = await schedule(at(10), 'Missed');
    const late = await schedule(at(20), 'Late');
    const later = await schedule(at(40), 'Later');
    const moved = await schedule(at(60), 'Moved');
    assert.equal((await api.patch(`/v2/bots/scheduled/${moved}`, { join_at: at(50) })).status, 200);
    const bot = async (id: string) => (await api.get(`/v2/bots/${id}`)).body.data;
    const launched = (id: string) => launcher.launches.some((l) => l.job.bot_id === id);
    const restartAt = async (minutes: number) => {
      now = new Date(T0 + minutes * MINUTE);
      t = await t.restart();
      api = apiClient(t.url, team.api_key);
    };

    // Restarted before any time: every bot is still waiting, and none is run by the restarted dispatcher.
    await restartAt(5);
    assert.equal(t.service.scheduler.waitingCount, 4);
    for (const id of [missed, late, later, moved]) assert.equal((await bot(id)).status, 'scheduled');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(launcher.launches.length, 0);

    // Down from minute 5 to minute 21: "Missed" (minute 10) is 11 minutes late, "Late" (minute 20) 1 minute.
    await restartAt(21);
    const lateBot = await readUntil(() => bot(late), (b) => b.status !== 'scheduled');
    assert.equal(lateBot.status, 'queued');
    assert.equal(lateBot.status_history[1].created_at, at(21), 'queued at once, at the restart');
    await launcher.waitForLaunch(late);

    const missedBot = await readUntil(() => bot(missed), (b) => b.status !== 'scheduled');
    assert.equal(missedBot.status, 'failed');
    assert.equal(missedBot.error_code, 'SCHEDULED_TIME_MISSED');
    assert.match(missedBot.error_message, /scheduled to join at 2026-03-02T09:10:00.000Z, but the service could only start it 11 min 0 s later/);
    assert.equal(launched(missed), false);
    const ledger = (await t.service.eventStore.readStream(`team-${team.team_id}`)).filter((e) => e.data.bot_id === missed);
    assert.deepEqual(ledger, [], 'a missed bot takes no token');

    // The two others keep their times, the moved one its new time, through the restarts.
    assert.equal(t.service.scheduler.waitingCount, 2);
    now = new Date(Date.parse(at(40)) - SCHEDULED_BOT_LEAD_MS);
    await launcher.waitForLaunch(later);
    assert.equal((await bot(moved)).status, 'scheduled');
    now = new Date(Date.parse(at(50)) - SCHEDULED_BOT_LEAD_MS);
    await launcher.waitForLaunch(moved);
    assert.equal(t.service.scheduler.waitingCount, 0);
  });
});
