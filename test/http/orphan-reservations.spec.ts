import assert from 'node:assert/strict';
import { handleTeamCommand } from '../../src/commands/team-commands';
import { adminClient, createTeam } from '../support/http-client';
import { startTestService } from '../support/test-service';

describe('a reservation whose bot was never created (the service died in between)', () => {
  it('is released once the grace period has passed', async () => {
    const t = await startTestService({ overrides: { orphanReservationGraceMs: 100 } });
    try {
      const team = await createTeam(t.url, { tokens: 1 });
      // What createBot does first, without the bot it would then create: the state a crash leaves.
      const reserved = await handleTeamCommand(t.service.commands, team.team_id, {
        type: 'ReserveTokensForBot',
        bot_id: '22222222-2222-4222-8222-222222222222',
        now: new Date().toISOString(),
      });
      assert.equal(reserved._tag, 'Right');
      assert.equal((await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data.reserved, 0.5);

      let ledger: any;
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 50));
        ledger = (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data;
        if (ledger.reserved === 0) break;
      }
      assert.equal(ledger.reserved, 0);
      assert.equal(ledger.bots_last_24h, 0, 'an aborted creation does not count towards the daily cap');
      assert.match(t.logText(), /released a reservation whose bot was never created/);
    } finally {
      await t.stop();
    }
  });
});
