import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
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
import { DeletedBotDataWatch } from '../../src/subscribers/bot-data/deleted-bot-data-watch';
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
describe("every process forgets what it folded of a bot whose data another process deleted, and sees its erasure", () => {
  let dir: string;
  let raw: SqliteEventStore;
  let keys: KeyVault;
  let deleting: CommandDeps;
  let other: PersonalDataEventStore;
  let watch: DeletedBotDataWatch | null;
  let logged: Record<string, any>[];
  const foldedHere = () => JSON.stringify(stateCacheFor(other).get(botStreamName(BOT))?.state ?? null);

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'forget-deleted-'));
    raw = new SqliteEventStore(path.join(dir, 'events.sqlite3'));
    keys = new SealedKeyVault(new SqliteKeyRecords(path.join(dir, 'key-vault.sqlite3')), new SecretBox(new ServiceKeys([Buffer.alloc(32, 3)])));
    deleting = { eventStore: new PersonalDataEventStore(raw, keys), clock: () => new Date('2026-03-03T10:00:00.000Z'), newId: () => randomUUID() };
    other = new PersonalDataEventStore(raw, keys);
    watch = null;
    await deleting.eventStore.appendToStream(botStreamName(BOT), ended.map((e) => ({ id: randomUUID(), ...e })), 'no_stream');
    await loadBot({ eventStore: other }, BOT);
    assert.ok(foldedHere().includes('Hello Alice Martin'), "the other process folded the bot's chat request (its state holds the message)");
  });
  afterEach(async () => {
    await watch?.stop();
    await keys.close();
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const watching = (from: bigint | null) => {
    const { log, records } = recordingLogger();
    logged = records;
    watch = new DeletedBotDataWatch({ eventStore: other, keyVault: keys, log });
    watch.start(from);
    return watch;
  };

  it('given a deletion through one process, then the other drops its folded state, and folds the placeholders again', async () => {
    const from = (await raw.readAll()).at(-1)!.position;
    assert.ok(E.isRight(await deleteBotData(deleting, keys, BOT, 'key-1')));
    assert.ok(foldedHere().includes('Hello Alice Martin'), "the deleting process cannot reach the other one's memory");
    watching(from);
    await waitFor(() => stateCacheFor(other).get(botStreamName(BOT)) === undefined, 'the other process to forget the bot');
    const again = JSON.stringify(await loadBot({ eventStore: other }, BOT));
    assert.ok(!again.includes('Alice'), 'folded again, nothing personal');
    assert.ok(again.includes('[deleted]'));
  });

  it("given a deletion recorded whose key is not destroyed yet (the deleting process stopped in between), then the state is kept until the eraser destroys the key: the watch destroys nothing", async () => {
    assert.ok(E.isRight(await handleBotCommand(deleting, BOT, { type: 'DeleteBotData', key_id: 'key-1', now: T })));
    watching(null);
    await waitFor(() => logged.some((r) => r.msg.includes('not destroyed yet') && r.bot_id === BOT), 'the watch to see the deletion');
    assert.equal((await keys.lookup(BOT)).state, 'live', 'the watch leaves the key to the eraser (lease data-erasure)');
    assert.ok(stateCacheFor(other).get(botStreamName(BOT)) !== undefined, 'nothing forgotten while a fold would read the same again');
    await keys.destroy(BOT, T);
    await waitFor(() => stateCacheFor(other).get(botStreamName(BOT)) === undefined, 'the other process to forget the bot');
    assert.ok(!JSON.stringify(await loadBot({ eventStore: other }, BOT)).includes('Alice'));
  });

  it('wakes who waits for the erasure of the bot\'s artifacts, recorded through any process, with its position; one who stopped waiting is not woken', async () => {
    const from = (await raw.readAll()).at(-1)!.position;
    const watch = watching(from);
    const waiting = watch.erasureOf(BOT);
    const gaveUp = watch.erasureOf(BOT);
    gaveUp.cancel();
    let wokeGaveUp = false;
    void gaveUp.recorded.then(() => (wokeGaveUp = true));
    assert.ok(E.isRight(await deleteBotData(deleting, keys, BOT, 'key-1')));
    const erased = await handleBotCommand(deleting, BOT, { type: 'RecordArtifactsErased', keys: [], now: T });
    assert.ok(E.isRight(erased));
    assert.equal(await waiting.recorded, erased.right.position);
    waiting.cancel();
    await new Promise((resolve) => setImmediate(resolve)); // what the same event woke has run by now
    assert.equal(wokeGaveUp, false);
  });
});
