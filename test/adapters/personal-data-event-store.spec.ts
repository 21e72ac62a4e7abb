import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import type { KeyVault } from '../../src/adapters/key-vault/port';
import { SealedKeyVault } from '../../src/adapters/key-vault/sealed-key-vault';
import { SqliteKeyRecords } from '../../src/adapters/key-vault/sqlite-key-records';
import type { RecordedEvent } from '../../src/adapters/event-store/port';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { PersonalDataEventStore } from '../../src/adapters/personal-data/personal-data-event-store';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import bunyan from 'bunyan';
import { DomainEvent } from '../../src/domain/all-events';
import { followLog } from '../../src/subscribers/follow-log';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { DELETED_MEETING_URL, DELETED_TEXT } from '../../src/domain/bot/personal-data';

const BOT = '0d7a5e1e-0000-4000-8000-000000000001';
const OTHER_BOT = '0d7a5e1e-0000-4000-8000-000000000002';
const T = '2026-03-03T09:00:00.000Z';

const MEETING = 'https://meet.google.com/abc-defg-hij?pwd=secret';
const created = (botId = BOT) => ({
  type: 'BotCreated',
  data: {
    bot_id: botId, team_id: 'team-1', meeting_url: MEETING, platform: 'mt', bot_name: "Alice Martin's notetaker",
    extra: { customer_email: 'alice@example.com' },
    config: { ...defaultBotConfig(), entry_message: 'Hello Alice', ignored_participant_names: ['Bob Durand'], transcription: { provider: 'Gladia', api_key: null, custom_params: { vocabulary: ['Zoë Lefèvre'] } } },
    created_by: null, created_at: T,
  },
});
const chatRequested = { type: 'ChatMessageRequested', data: { bot_id: BOT, request_id: 'm1', message: 'Call Alice at +33 6 12 34 56 78', at: T } };
const chat = { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'm1', message: 'Call Alice at +33 6 12 34 56 78', at: T } };
const participants = { type: 'ParticipantsReported', data: { bot_id: BOT, participants: ['Alice Martin', 'Bob Durand'], speakers: ['Alice Martin'], at: T } };
const status = { type: 'StatusChanged', data: { bot_id: BOT, status: 'joining_call', at: T } };
const webhook = {
  type: 'WebhookMessageQueued',
  data: {
    target: { kind: 'endpoint', endpoint_id: 'ep-1' }, subject: `bot-${BOT}`, team_id: 'team-1', message_id: 'msg_1', event_type: 'bot.completed',
    payload: { event: 'bot.completed', data: { bot_id: BOT, extra: { customer_email: 'alice@example.com' }, participants: ['Alice Martin'], speakers: ['Alice Martin'], duration_seconds: 60 } },
    callback: null, at: T,
  },
};
const PERSONAL = ['Alice', 'alice@example.com', 'Bob Durand', 'Zoë', 'abc-defg-hij', '+33 6 12'];

let ids = 0;
const newEvent = (e: { type: string; data: Record<string, unknown> }) => ({ id: `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`, ...e });

describe('the event log seals bots\' personal fields with their own key (crypto-shredding)', () => {
  let dir: string;
  let raw: SqliteEventStore;
  let keys: KeyVault;
  let log: PersonalDataEventStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'personal-data-'));
    raw = new SqliteEventStore(path.join(dir, 'events.sqlite3'));
    keys = new SealedKeyVault(new SqliteKeyRecords(path.join(dir, 'key-vault.sqlite3')), new SecretBox(new ServiceKeys([Buffer.alloc(32, 9)])));
    log = new PersonalDataEventStore(raw, keys);
  });
  afterEach(async () => {
    await log.close();
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stripped = (events: readonly RecordedEvent[]) => events.map(({ type, data }) => ({ type, data }));
  const eventsFile = () => readFileSync(path.join(dir, 'events.sqlite3')).toString('utf8') + readFileSync(path.join(dir, 'events.sqlite3-wal'), { flag: 'a+' }).toString('utf8');
  const viaSubscription = async (count: number): Promise<RecordedEvent[]> => {
    const seen: RecordedEvent[] = [];
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    const subscription = log.subscribeToAll({}, async (e) => {
      seen.push(e);
      if (seen.length === count) done();
    });
    await all;
    await subscription.stop();
    return seen;
  };
  const decodes = (events: readonly RecordedEvent[]) => {
    for (const e of events) assert.ok(E.isRight(DomainEvent.decode({ type: e.type, data: e.data })), `${e.type} decodes with the domain's codec`);
  };

  it('writes no personal field in clear, and every reader gets the events as they were appended', async () => {
    const appended = [created(), status, chatRequested, chat, participants];
    await log.appendToStream(`bot-${BOT}`, appended.map(newEvent), 'no_stream');
    await log.appendToStream(`webhook-delivery-ep-1-bot-${BOT}`, [newEvent(webhook)], 'no_stream');
    for (const text of PERSONAL) assert.ok(!eventsFile().includes(text), `"${text}" is not in the log's file`);

    const stored = await raw.readStream(`bot-${BOT}`);
    assert.deepEqual(stored[1]!.data, status.data, 'what is not personal is stored as it is');
    assert.equal(stored[0]!.data.team_id, 'team-1');
    assert.match(JSON.stringify(stored[0]!.data.bot_name), /^\{"\$personal":"pd1\./);

    assert.deepEqual(stripped(await log.readStream(`bot-${BOT}`)), appended);
    assert.deepEqual(stripped(await log.readAll()), [...appended, webhook]);
    assert.deepEqual(stripped(await viaSubscription(6)), [...appended, webhook]);
  });

  it('once the bot\'s key is destroyed, every reader gets placeholders the domain still decodes; the rest is intact', async () => {
    await log.appendToStream(`bot-${BOT}`, [created(), status, chatRequested, chat, participants].map(newEvent), 'no_stream');
    await log.appendToStream(`webhook-delivery-ep-1-bot-${BOT}`, [newEvent(webhook)], 'no_stream');
    await log.appendToStream(`bot-${OTHER_BOT}`, [newEvent(created(OTHER_BOT))], 'no_stream');
    await keys.destroy(BOT, T);

    for (const events of [await log.readAll(), await viaSubscription(7)]) {
      decodes(events);
      const mine = events.filter((e) => JSON.stringify(e.data).includes(BOT));
      for (const text of PERSONAL) assert.ok(!JSON.stringify(mine.map((e) => e.data)).includes(text), `"${text}" is not read any more`);
      const bot = mine.find((e) => e.type === 'BotCreated')!.data as any;
      assert.deepEqual([bot.meeting_url, bot.bot_name, bot.extra, bot.config.entry_message, bot.config.ignored_participant_names, bot.config.transcription.custom_params], [DELETED_MEETING_URL, DELETED_TEXT, null, null, [], null]);
      assert.equal(bot.config.transcription.provider, 'Gladia', 'the settings stay');
      assert.deepEqual(mine.find((e) => e.type === 'StatusChanged')!.data, status.data);
      assert.deepEqual((mine.find((e) => e.type === 'WebhookMessageQueued')!.data as any).payload.data, { bot_id: BOT, extra: null, participants: [], speakers: [], duration_seconds: 60 });
      const other = events.find((e) => e.streamName === `bot-${OTHER_BOT}`)!;
      assert.equal(other.data.bot_name, "Alice Martin's notetaker", "another bot's data is untouched");
    }
  });

  it('every consumer of the log (followLog) gets the domain\'s decoded events, opened, and the placeholders once the bot\'s data is deleted', async () => {
    await log.appendToStream(`bot-${BOT}`, [created(), status, chatRequested, chat].map(newEvent), 'no_stream');
    const followed = async (): Promise<DomainEvent[]> => {
      const seen: DomainEvent[] = [];
      let done!: () => void;
      const all = new Promise<void>((resolve) => (done = resolve));
      const following = followLog(log, { name: 'test', log: bunyan.createLogger({ name: 'test', level: 'fatal' }) }, (event) => {
        seen.push(event);
        if (seen.length === 4) done();
      });
      await all;
      await following.stop();
      return seen;
    };
    /** what each event says of the person (its type for one that says nothing) */
    const shown = (e: DomainEvent) => (e.type === 'ChatMessageRequested' || e.type === 'ChatMessageSent' ? e.data.message : e.type === 'BotCreated' ? e.data.bot_name : e.type);
    assert.deepEqual(
      (await followed()).map(shown),
      ["Alice Martin's notetaker", 'StatusChanged', chatRequested.data.message, chat.data.message],
    );
    await keys.destroy(BOT, T);
    assert.deepEqual(
      (await followed()).map(shown),
      [DELETED_TEXT, 'StatusChanged', DELETED_TEXT, DELETED_TEXT],
    );
  });

  it('an event written before keys existed reads as written until the bot\'s data is deleted, then as deleted too (the file still holds it)', async () => {
    await raw.appendToStream(`bot-${BOT}`, [newEvent(created()), newEvent(participants)], 'no_stream');
    assert.deepEqual(stripped(await log.readStream(`bot-${BOT}`)), [created(), participants]);
    await keys.destroy(BOT, T);
    const after = await log.readStream(`bot-${BOT}`);
    decodes(after);
    assert.equal(after[0]!.data.bot_name, DELETED_TEXT);
    assert.deepEqual(after[1]!.data.participants, []);
    assert.ok(eventsFile().includes('Alice Martin'), 'its raw payload in the file is as it was written: only the readers are kept from it');
  });

  it('nothing personal of a deleted bot is written in clear again: a later event gets the placeholders', async () => {
    await log.appendToStream(`bot-${BOT}`, [newEvent(created())], 'no_stream');
    await keys.destroy(BOT, T);
    await log.appendToStream(`webhook-delivery-ep-2-bot-${BOT}`, [newEvent(webhook)], 'no_stream');
    for (const text of PERSONAL) assert.ok(!eventsFile().includes(text), `"${text}" is not in the log's file`);
    const stored = await raw.readStream(`webhook-delivery-ep-2-bot-${BOT}`);
    assert.deepEqual((stored[0]!.data as any).payload.data.participants, []);
  });

  it('a sealed value opens only where it was sealed: moved to another bot it reads as deleted', async () => {
    await log.appendToStream(`bot-${BOT}`, [newEvent(created())], 'no_stream');
    const sealedName = (await raw.readStream(`bot-${BOT}`))[0]!.data.bot_name;
    await log.appendToStream(`bot-${OTHER_BOT}`, [newEvent(created(OTHER_BOT))], 'no_stream');
    const forged = created(OTHER_BOT);
    await raw.appendToStream(`bot-${OTHER_BOT}`, [newEvent({ type: 'BotScheduleChanged', data: { ...forged.data, bot_name: sealedName, join_at: T, at: T } })], 0n);
    const [, changed] = await log.readStream(`bot-${OTHER_BOT}`);
    assert.equal(changed!.data.bot_name, DELETED_TEXT);
  });
});
