import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';

describe('SQLite checkpoint store (subscriber progress that survives a restart)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has no checkpoint at first, keeps the last one saved per name, and still has it when opened again', async () => {
    const file = path.join(dir, 'checkpoints.sqlite3');
    const first = new SqliteCheckpointStore(file);
    assert.equal(await first.loadCheckpoint('webhooks'), null);
    await first.saveCheckpoint('webhooks', 5n);
    await first.saveCheckpoint('webhooks', 9n);
    await first.saveCheckpoint('settler', 2n ** 60n + 1n);
    await first.close();
    const reopened = new SqliteCheckpointStore(file);
    assert.equal(await reopened.loadCheckpoint('webhooks'), 9n);
    assert.equal(await reopened.loadCheckpoint('settler'), 2n ** 60n + 1n, 'beyond 2^53, exactly');
    await reopened.close();
  });
});
