import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoSharedState } from '../../src/adapters/shared-state/mongo-shared-state';
import { PostgresSharedState } from '../../src/adapters/shared-state/postgres-shared-state';
import { SqliteSharedState } from '../../src/adapters/shared-state/sqlite-shared-state';
import { sharedFerretdb } from '../support/ferretdb';
import { freshPostgresDatabase } from '../support/postgres';
import { sharedStateContract } from './shared-state.contract';

const sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'shared-state-'));
const sqliteFile = path.join(sqliteDir, `${randomUUID()}.sqlite3`);
sharedStateContract('SQLite (processes on one host)', {
  make: async () => new SqliteSharedState(sqliteFile),
  cleanup: async () => rmSync(sqliteDir, { recursive: true, force: true }),
});

let postgresUrl: Promise<string> | null = null;
sharedStateContract('PostgreSQL', {
  make: async () => PostgresSharedState.connect(await (postgresUrl ??= freshPostgresDatabase('shared_state'))),
});

let mongoTarget: Promise<{ url: string; database: string }> | null = null;
const mongo = () => (mongoTarget ??= sharedFerretdb().then((f) => ({ url: f.url, database: f.databaseName('shared_state') })));
sharedStateContract('MongoDB wire protocol on FerretDB', {
  make: async () => {
    const { url, database } = await mongo();
    return MongoSharedState.connect(url, database);
  },
  cleanup: async () => {
    if (mongoTarget === null) return;
    const { url, database } = await mongoTarget;
    const client = new MongoClient(url);
    await client.db(database).dropDatabase().finally(() => client.close());
  },
});
