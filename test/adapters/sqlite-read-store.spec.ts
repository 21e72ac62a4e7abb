import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { SqliteReadStore } from '../../src/adapters/read-store/sqlite-read-store';
import { compileFind } from '../../src/adapters/read-store/sqlite-query';
import type { FindQuery } from '../../src/adapters/read-store/port';
import { allProjections } from '../../src/capabilities';
import { ensureProjectionIndexes } from '../../src/projections/apply-event';
import { BOTS } from '../../src/projections/bot-view';
import { ARTIFACT_RETENTION } from '../../src/projections/artifact-retention-view';
import { SPILLED_ARTIFACTS } from '../../src/projections/spilled-artifact-view';
import { WEBHOOK_QUEUES } from '../../src/projections/webhooks/webhook-queue-view';
import { eventually } from '../support/eventually';
import { sqliteFiles } from '../support/sqlite-files';

describe('SQLite read store: what only a file shows', () => {
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(() => files.cleanup());

  it('keeps documents, indexes and checkpoints across a close and an open', async () => {
    const file = files.newFile();
    const first = new SqliteReadStore(file);
    await first.ensureIndexes('bots', [[{ field: 'team_id', direction: 'asc' }, { field: 'created_at', direction: 'desc' }]]);
    await first.upsert('bots', { id: 'b1', team_id: 't', created_at: '2026-01-01' }, 7n);
    await first.saveCheckpoint('projections', 7n);
    await first.close();
    const again = new SqliteReadStore(file);
    try {
      assert.deepEqual(await again.get('bots', 'b1'), { doc: { id: 'b1', team_id: 't', created_at: '2026-01-01' }, position: 7n });
      assert.equal(await again.loadCheckpoint('projections'), 7n);
      assert.deepEqual((await again.find('bots', { where: { team_id: 't' } })).map((d) => d.id), ['b1']);
    } finally {
      await again.close();
    }
  });

  it('commits what `atomically` wrote all at once, or nothing of it when the work fails', async () => {
    const file = files.newFile();
    const store = new SqliteReadStore(file);
    try {
      await store.atomically(async () => {
        await store.upsert('bots', { id: 'kept' }, 1n);
        await store.saveCheckpoint('projections', 1n);
      });
      await assert.rejects(
        store.atomically(async () => {
          await store.upsert('bots', { id: 'lost' }, 2n);
          await store.saveCheckpoint('projections', 2n);
          throw new Error('the projection failed');
        }),
        /the projection failed/,
      );
      assert.equal(await store.get('bots', 'lost'), null);
      assert.equal(await store.loadCheckpoint('projections'), 1n, 'the checkpoint is never ahead of the documents');
      assert.equal((await store.get('bots', 'kept'))?.position, 1n);
    } finally {
      await store.close();
    }
  });

  it('keeps what earlier works of the same transaction wrote when a later one fails after a query wrote them out', async () => {
    const file = files.newFile();
    const store = new SqliteReadStore(file);
    await store.atomically(async () => {
      await store.upsert('bots', { id: 'earlier', team_id: 't' }, 1n);
      await store.saveCheckpoint('projections', 1n);
    });
    await assert.rejects(
      store.atomically(async () => {
        await store.upsert('bots', { id: 'failed', team_id: 't' }, 2n);
        assert.equal(await store.count('bots', { team_id: 't' }), 2, 'a query sees the turn so far');
        throw new Error('the projection failed');
      }),
    );
    assert.deepEqual((await store.find('bots', { where: { team_id: 't' } })).map((d) => d.id), ['earlier']);
    await store.close();
    const again = new SqliteReadStore(file);
    try {
      assert.deepEqual((await again.find('bots', {})).map((d) => d.id), ['earlier'], 'committed: the earlier work, not the failed one');
      assert.equal(await again.loadCheckpoint('projections'), 1n);
    } finally {
      await again.close();
    }
  });

  it('reads what its open transaction wrote, and commits it by itself a moment later', async () => {
    const file = files.newFile();
    const store = new SqliteReadStore(file);
    try {
      await store.atomically(async () => {
        await store.upsert('bots', { id: 'a', v: 1 }, 1n);
        await store.upsert('bots', { id: 'a', v: 2 }, 2n);
        assert.equal(await store.upsert('bots', { id: 'a', v: 0 }, 1n), false, 'the position guard holds within the turn');
      });
      assert.deepEqual(await store.get('bots', 'a'), { doc: { id: 'a', v: 2 }, position: 2n });
      const reader = new Database(file, { readonly: true });
      try {
        const committed = () => {
          const table = reader.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'rm_bots'`).pluck().get() as number;
          return table === 1 ? (reader.prepare('SELECT doc FROM "rm_bots" WHERE id = ?').pluck().get('a') as string | undefined) : undefined;
        };
        const seen = await eventually(async () => committed(), (doc) => doc !== undefined, 5);
        assert.equal(seen, JSON.stringify({ id: 'a', v: 2 }), 'another connection sees it once committed, by itself, a moment later');
      } finally {
        reader.close();
      }
    } finally {
      await store.close();
    }
  });

  it('answers a team page newest first from the index, without sorting the team', async () => {
    const file = files.newFile();
    const store = new SqliteReadStore(file);
    await store.ensureIndexes('bots', [[{ field: 'team_id', direction: 'asc' }, { field: 'created_at', direction: 'desc' }, { field: 'id', direction: 'desc' }]]);
    await store.close();
    const { tail, params } = compileFind({
      where: { team_id: 't' },
      orderBy: [{ field: 'created_at', direction: 'desc' }, { field: 'id', direction: 'desc' }],
      startAfter: ['2026-01-01', 'b9'],
      limit: 11,
    });
    const db = new Database(file, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "rm_bots"${tail}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n');
      assert.match(plan, /USING INDEX ix_/, plan);
      assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
    } finally {
      db.close();
    }
  });

  it('answers what a start and the sweeps read from an index, not by reading every document ever made', async () => {
    const file = files.newFile();
    const store = new SqliteReadStore(file);
    await ensureProjectionIndexes(store, allProjections);
    await store.close();
    // The queries of the dispatcher, the watches, the scheduler, the webhook worker, the spill uploader and retention.
    const queries: Array<[string, FindQuery]> = [
      [BOTS, { where: { ended_at: null }, orderBy: [{ field: 'created_at', direction: 'asc' }] }],
      [BOTS, { where: { ended_at: null, dispatched: true, worker_id: 'w' } }],
      [BOTS, { where: { status: 'scheduled' }, orderBy: [{ field: 'created_at', direction: 'asc' }] }],
      [WEBHOOK_QUEUES, { where: { pending: true } }],
      [WEBHOOK_QUEUES, { where: { target_key: 'k', pending: true } }],
      [SPILLED_ARTIFACTS, { where: { pending: true }, orderBy: [{ field: 'id', direction: 'asc' }], limit: 200 }],
      [ARTIFACT_RETENTION, { where: { due: true }, orderBy: [{ field: 'expires_at', direction: 'asc' }, { field: 'id', direction: 'asc' }], limit: 100 }],
    ];
    const db = new Database(file, { readonly: true });
    try {
      for (const [collection, query] of queries) {
        const { tail, params } = compileFind(query);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "rm_${collection}"${tail}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n');
        // Sorting what matched is fine: the active bots, not all of them.
        assert.match(plan, /SEARCH .* USING INDEX ix_/, `${collection} ${JSON.stringify(query)}:\n${plan}`);
        assert.doesNotMatch(plan, /SCAN/, `${collection} ${JSON.stringify(query)}:\n${plan}`);
      }
    } finally {
      db.close();
    }
  });
});
