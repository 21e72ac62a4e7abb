import assert from 'node:assert/strict';
import { MemoryReadStore } from '../../src/adapters/read-store/memory-read-store';
import type { ReadDocument } from '../../src/adapters/read-store/port';
import type { DomainEvent } from '../../src/domain/all-events';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { allProjections } from '../../src/capabilities';
import { applyEventToProjections } from '../../src/projections/apply-event';
import { extraTextKey, extraTexts, foldForSearch } from '../../src/projections/legacy-bot-search';
import { LEGACY_BOTS, type LegacyBotView } from '../../src/projections/legacy-bot-view';

const created = (bot_id: string, team_id: string, extra: Record<string, unknown> | null = null): DomainEvent => ({
  type: 'BotCreated',
  data: {
    bot_id,
    team_id,
    meeting_url: 'https://meet.google.com/abc-defg-hij',
    platform: 'mt',
    bot_name: `Bot ${bot_id}`,
    extra,
    config: { ...defaultBotConfig(), api: 'legacy' },
    created_by: null,
    created_at: '2026-03-03T09:00:00.000Z',
  },
});

const legacyIdOf = async (store: MemoryReadStore, botId: string) => (await store.get<LegacyBotView>(LEGACY_BOTS, botId))?.doc.legacy_id;

/** A store whose next write to `collection` fails, as a lost connection would, after which writes work again. */
class FailingOnce extends MemoryReadStore {
  private failNext: string | null = null;
  failNextWriteTo(collection: string) {
    this.failNext = collection;
  }
  override async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    if (this.failNext === collection) {
      this.failNext = null;
      throw new Error('connection lost');
    }
    return super.upsert(collection, doc, position);
  }
}

describe('the legacy bot view numbers each team’s bots in log order', () => {
  it('gives 1, 2, 3 per team, in the order the bots were created', async () => {
    const store = new MemoryReadStore();
    const events = [created('a', 't1'), created('b', 't2'), created('c', 't1'), created('d', 't1'), created('e', 't2')];
    for (const [i, event] of events.entries()) await applyEventToProjections(store, allProjections, event, BigInt(i + 1));
    assert.deepEqual(await Promise.all(['a', 'c', 'd', 'b', 'e'].map((id) => legacyIdOf(store, id))), [1, 2, 3, 1, 2]);
  });

  it('applying an event again draws no new number', async () => {
    const store = new MemoryReadStore();
    await applyEventToProjections(store, allProjections, created('a', 't1'), 1n);
    await applyEventToProjections(store, allProjections, created('a', 't1'), 1n);
    await applyEventToProjections(store, allProjections, created('b', 't1'), 2n);
    assert.deepEqual([await legacyIdOf(store, 'a'), await legacyIdOf(store, 'b')], [1, 2]);
  });

  it('a failure between drawing the number and writing the bot: the retry gets the same number', async () => {
    const store = new FailingOnce();
    await applyEventToProjections(store, allProjections, created('a', 't1'), 1n);
    store.failNextWriteTo(LEGACY_BOTS);
    await assert.rejects(applyEventToProjections(store, allProjections, created('b', 't1'), 2n), /connection lost/);
    await applyEventToProjections(store, allProjections, created('b', 't1'), 2n);
    await applyEventToProjections(store, allProjections, created('c', 't1'), 3n);
    assert.deepEqual([await legacyIdOf(store, 'a'), await legacyIdOf(store, 'b'), await legacyIdOf(store, 'c')], [1, 2, 3]);
  });

  it('keeps the text of every extra field under a name a document path can hold', () => {
    assert.deepEqual(extraTexts({ deal: 42, 'a.b': 'x', $where: true, '%': null, '': 'empty', nested: { a: [1] }, none: null }), {
      k_deal: '42',
      'k_a%2Eb': 'x',
      'k_%24where': 'true',
      k_: 'empty',
      k_nested: '{"a":[1]}',
    });
    assert.notEqual(extraTextKey('a.b'), extraTextKey('a%2Eb'), 'the escape itself is escaped');
    assert.equal(extraTextKey('a\u0000b'), 'k_a%00b', 'no NUL in a stored name');
    assert.equal(foldForSearch('ZOË'), foldForSearch('zoe\u0308'));
  });
});

describe('the legacy bot view follows a recording wherever it is kept', () => {
  const at = '2026-03-03T09:05:00.000Z';
  const recording = { bot_id: 'a', artifact_type: 'recording', key: 'recording.mp4', content_type: 'video/mp4' };
  const viewAfter = async (...events: DomainEvent[]) => {
    const store = new MemoryReadStore();
    for (const [i, event] of [created('a', 't1'), ...events].entries()) await applyEventToProjections(store, allProjections, event, BigInt(i + 1));
    return (await store.get<LegacyBotView>(LEGACY_BOTS, 'a'))!.doc;
  };

  it('a spilled recording is the bot’s recording while the service holds it, and stays so once uploaded', async () => {
    const spilled: DomainEvent = { type: 'ArtifactSpilled', data: { ...recording, size_bytes: 5, reason: 'AccessDenied', at } };
    assert.deepEqual((await viewAfter(spilled)).recording, { key: 'recording.mp4', content_type: 'video/mp4' });
    const stored: DomainEvent = { type: 'ArtifactStored', data: { ...recording, size_bytes: 5, at } };
    assert.deepEqual((await viewAfter(spilled, stored)).recording, { key: 'recording.mp4', content_type: 'video/mp4' });
  });

  it('a lost or expired recording changes nothing the view keeps: its links say it is gone', async () => {
    const stored: DomainEvent = { type: 'ArtifactStored', data: { ...recording, size_bytes: 5, at } };
    const failed: DomainEvent = { type: 'ArtifactUploadFailed', data: { ...recording, reason: 'AccessDenied', at } };
    const expired: DomainEvent = { type: 'ArtifactsExpired', data: { bot_id: 'a', keys: ['recording.mp4'], at: '2026-03-11T09:00:00.000Z' } };
    assert.equal((await viewAfter(failed)).recording, null, 'never stored');
    const before = await viewAfter(stored);
    assert.deepEqual(await viewAfter(stored, expired), before);
  });
});
