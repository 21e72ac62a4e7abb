import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { DomainEvent } from '../../src/domain/all-events';
import { settleTokensWhenBotEnds } from '../../src/subscribers/settle-tokens-when-bot-ends';
import { temporarySqliteStore } from './support';

const T0 = '2026-11-23T10:00:00.000Z';
const fixture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/bot-created-before-bot-config.json'), 'utf8')) as {
  events: { type: string; data: Record<string, unknown> }[];
};

describe('settling a bot charges only the features that ran', () => {
  it('a bot created before options were checked, asking for transcription and streaming, is charged its recording only', async () => {
    const { store, dispose } = temporarySqliteStore();
    try {
      const old = fixture.events[0]!;
      const botId = old.data.bot_id as string;
      const teamId = old.data.team_id as string;
      const deps = { eventStore: store };
      assert.ok(E.isRight(await handleTeamCommand(deps, teamId, { type: 'CreateTeam', team_id: teamId, name: 't', daily_bot_cap: 10, rate_limit_per_second: 10, initial_tokens: 10_000, now: T0 })));
      assert.ok(E.isRight(await handleTeamCommand(deps, teamId, { type: 'ReserveTokensForBot', bot_id: botId, now: T0 })));
      // the old event exactly as the previous version stored it
      await store.appendToStream(`bot-${botId}`, [{ id: '00000000-0000-4000-8000-000000000001', type: old.type, data: old.data }], 'no_stream');
      const config = (await store.readStream(`bot-${botId}`))[0]!.data.config as Record<string, unknown>;
      assert.equal(config.transcription_enabled, true, 'the fixture asks for transcription');
      assert.equal(config.streaming_enabled, true, 'and for streaming');

      const completed = DomainEvent.decode({
        type: 'BotCompleted',
        data: { bot_id: botId, end_reason: 'API_REQUEST', usage: { recorded_seconds: 3600, waiting_room_seconds: 0 }, at: T0 },
      });
      assert.ok(E.isRight(completed));
      const settler = settleTokensWhenBotEnds(store);
      await settler.handle(completed.right, (await store.readStream(`bot-${botId}`))[0]!);

      const team = await loadTeam(deps, teamId);
      assert.equal(team.kind, 'present');
      // one hour of recording is 1 token; transcription (0.25) and one streaming direction (0.10) did not run
      assert.equal(team.kind === 'present' && team.balance, 10_000 - 1000);
    } finally {
      await dispose();
    }
  });
});
