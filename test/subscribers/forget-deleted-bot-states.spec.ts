import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import type { Subscription } from '../../src/adapters/event-store/port';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import type { KeyVault } from '../../src/adapters/key-vault/port';
import { SealedKeyVault } from '../../src/adapters/key-vault/sealed-key-vault';
import { SqliteKeyRecords } from '../../src/adapters/key-vault/sqlite-key-records';
import { PersonalDataEventStore } from '../../src/adapters/personal-data/personal-data-event-store';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import { handleBotCommand, loadBot } from '../../src/commands/bot-commands';
import type { CommandDeps } from '../../src/commands/command-deps';
import { deleteBotData } from '../../src/commands/delete-bot-data';
import { stateCacheFor } from '../../src/commands/stream-state-cache';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { forgetDeletedBotStates } from '../../src/subscribers/bot-data/forget-deleted-bot-states';
import { recordingLogger, waitFor } from './support';

const BOT = '0d7a5e1e-0000-4000-8000-00000000f0f0';
const T = '2026-03-03T09:00:00.000Z';
const usage = { recorded_seconds: 60, waiting_room_seconds: 0 };
const ended = [
  {
    type: 'BotCreated',
    data: {
      bot_id: BOT, team_id: 'team-1', meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: "Alice Martin's notetaker", extra: null,
      config: defaultBotConfig(), created_by: null, created_at: T,
    },
  },
  { type: 'StatusChanged', data: { bot_id: BOT, status: 'joining_call', at: T } },
  { type: 'StatusChanged', data: { bot_id: BOT, status: 'in_call_recording', at: T } },
  { type: 'ChatMessageRequested', data: { bot_id: BOT, request_id: 'chat-1', message: 'Hello Alice Martin', at: T } },
  { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: T } },
];

/**
 * Two processes on one log and one key vault: each its own store object, so its own folded states (the
 * command handler's cache), as two instances of the service have.
 */
describe("every process forgets what it folded of a bot whose data another process deleted", () => {
  let dir: string;
  let raw: SqliteEventStore;
  let keys: KeyVault;
  let deleting: CommandDeps;
  let other: PersonalDataEventStore;
  let following: Subscription | null;
  const { log } = recordingLogger();
  const foldedHere = () => JSON.stringify(stateCacheFor(other).get(botStreamName(BOT))?.state ?? null);

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'forget-deleted-'));
    raw = new SqliteEventStore(path.join(dir, 'events.sqlite3'));
    keys = new SealedKeyVault(new SqliteKeyRecords(path.join(dir, 'key-vault.sqlite3')), new SecretBox(new ServiceKeys([Buffer.alloc(32, 3)])));
    deleting = { eventStore: new PersonalDataEventStore(raw, keys), clock: () => new Date('2026-03-03T10:00:00.000Z'), newId: () => randomUUID() };
    other = new PersonalDataEventStore(raw, keys);
    following = null;
    await deleting.eventStore.appendToStream(botStreamName(BOT), ended.map((e) => ({ id: randomUUID(), ...e })), 'no_stream');
    await loadBot({ eventStore: other }, BOT);
    assert.ok(foldedHere().includes('Hello Alice Martin'), "the other process folded the bot's chat request (its state holds the message)");
  });
  afterEach(async () => {
    await following?.stop();
    await keys.close();
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a deletion through one process, then the other drops its folded state, and folds the placeholders again', async () => {
    const from = (await raw.readAll()).at(-1)!.position;
    assert.ok(E.isRight(await deleteBotData(deleting, keys, BOT, 'key-1')));
    assert.ok(foldedHere().includes('Hello Alice Martin'), 'the deleting process cannot reach the other one\'s memory');
    following = forgetDeletedBotStates({ eventStore: other, keyVault: keys, log }, from);
    await waitFor(() => stateCacheFor(other).get(botStreamName(BOT)) === undefined, 'the other process to forget the bot');
    const again = JSON.stringify(await loadBot({ eventStore: other }, BOT));
    assert.ok(!again.includes('Alice'), 'folded again, nothing personal');
    assert.ok(again.includes('[deleted]'));
  });

  it('given a deletion recorded whose key was not destroyed yet (the deleting process stopped in between), then the key is destroyed before the state is forgotten', async () => {
    assert.ok(E.isRight(await handleBotCommand(deleting, BOT, { type: 'DeleteBotData', key_id: 'key-1', now: T })));
    assert.equal((await keys.lookup(BOT)).state, 'live');
    following = forgetDeletedBotStates({ eventStore: other, keyVault: keys, log }, null);
    await waitFor(() => stateCacheFor(other).get(botStreamName(BOT)) === undefined, 'the other process to forget the bot');
    assert.deepEqual(await keys.lookup(BOT), { state: 'destroyed', destroyedAt: T });
    assert.ok(!JSON.stringify(await loadBot({ eventStore: other }, BOT)).includes('Alice'));
  });
});
