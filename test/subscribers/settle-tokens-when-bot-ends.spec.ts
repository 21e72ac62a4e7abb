import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { DomainEvent } from '../../src/domain/all-events';
import type { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { INITIAL_TRANSCRIPTION } from '../../src/domain/bot/bot-events';
import { settleTokensWhenBotEnds } from '../../src/subscribers/settle-tokens-when-bot-ends';
import { temporarySqliteStore } from './support';

const T0 = '2026-11-23T10:00:00.000Z';
const fixture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/bot-created-before-bot-config.json'), 'utf8')) as {
  events: { type: string; data: Record<string, unknown> }[];
};

const HOUR = { recorded_seconds: 3600, waiting_room_seconds: 0 };

const decoded = (event: unknown): DomainEvent => {
  const result = DomainEvent.decode(event);
  assert.ok(E.isRight(result));
  return result.right;
};

/** A team with 10 tokens, the old fixture's bot (asking for transcription and streaming) with its reservation. */
const oldBotOfATeam = async (store: SqliteEventStore) => {
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
  const completed = decoded({ type: 'BotCompleted', data: { bot_id: botId, end_reason: 'API_REQUEST', usage: HOUR, at: T0 } });
  await store.appendToStream(`bot-${botId}`, [{ id: '00000000-0000-4000-8000-000000000002', type: completed.type, data: completed.data }], 'any');
  const balance = async () => {
    const team = await loadTeam(deps, teamId);
    assert.equal(team.kind, 'present');
    return team.kind === 'present' ? { balance: team.balance, reserved: team.reservedTotal } : null;
  };
  return { botId, completed, balance, recorded: async () => (await store.readStream(`bot-${botId}`))[0]! };
};

describe('settling a bot charges only the features that ran', () => {
  const transcriptionEnd = (botId: string, type: 'TranscriptionCompleted' | 'TranscriptionFailed', request_id = INITIAL_TRANSCRIPTION) =>
    decoded(
      type === 'TranscriptionCompleted'
        ? { type, data: { bot_id: botId, request_id, provider: 'Default', keys: [], utterances: 3, at: T0 } }
        : { type, data: { bot_id: botId, request_id, provider: 'Default', error_code: 'TRANSCRIPTION_FAILED', error_message: 'no', at: T0 } },
    );

  it('a bot asking for transcription is settled when its first transcription fails: its recording only (TRANSCRIPTION_FAILED; streaming never ran)', async () => {
    const { store, dispose } = temporarySqliteStore();
    try {
      const bot = await oldBotOfATeam(store);
      const settler = settleTokensWhenBotEnds(store);
      const before = await bot.balance();
      await settler.handle(bot.completed, await bot.recorded());
      assert.deepEqual(await bot.balance(), before, 'nothing is settled while the transcription runs');
      // a re-transcribe's end settles nothing either
      await settler.handle(transcriptionEnd(bot.botId, 'TranscriptionFailed', 'another'), await bot.recorded());
      assert.deepEqual(await bot.balance(), before);
      await settler.handle(transcriptionEnd(bot.botId, 'TranscriptionFailed'), await bot.recorded());
      // one hour of recording is 1 token; transcription (0.25) and one streaming direction (0.10) did not run
      assert.deepEqual(await bot.balance(), { balance: 10_000 - 1000, reserved: 0 });
    } finally {
      await dispose();
    }
  });

  it('a transcript produced adds transcription to the recording (1.25 tokens for the hour)', async () => {
    const { store, dispose } = temporarySqliteStore();
    try {
      const bot = await oldBotOfATeam(store);
      const settler = settleTokensWhenBotEnds(store);
      await settler.handle(bot.completed, await bot.recorded());
      await settler.handle(transcriptionEnd(bot.botId, 'TranscriptionCompleted'), await bot.recorded());
      assert.deepEqual(await bot.balance(), { balance: 10_000 - 1250, reserved: 0 });
    } finally {
      await dispose();
    }
  });
});
