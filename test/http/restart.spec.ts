import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { startTestService } from '../support/test-service';

describe('stopping and restarting the service', () => {
  it('keeps bots, teams, keys and balances', async () => {
    const first = await startTestService();
    const team = await createTeam(first.url, { tokens: 3 });
    const api = apiClient(first.url, team.api_key);
    const kept = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Kept', extra: { n: 1 } })).body.data.bot_id;
    const ledgerBefore = (await adminClient(first.url).get(`/admin/teams/${team.team_id}`)).body.data;

    const second = await first.restart();
    try {
      const again = apiClient(second.url, team.api_key);
      const bot = await again.get(`/v2/bots/${kept}`);
      assert.equal(bot.status, 200, 'the key still works and the bot is still there');
      assert.equal(bot.body.data.bot_name, 'Kept');
      assert.deepEqual(bot.body.data.extra, { n: 1 });
      const ledgerAfter = (await adminClient(second.url).get(`/admin/teams/${team.team_id}`)).body.data;
      assert.deepEqual(ledgerAfter, ledgerBefore);
      assert.equal((await again.get('/v2/bots')).body.data.bots.length, 1);
    } finally {
      await second.stop();
    }
  });
});
