import Database from 'better-sqlite3';
import { openSqliteFile } from '../disk/sqlite-file';
import type { SharedState } from './port';

/** Shared state in a SQLite file (the checkpoints' file by default): processes on one host, under its write lock. */
export class SqliteSharedState implements SharedState {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path: string) {
    this.db = openSqliteFile(path, 'NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS window_counters (name TEXT NOT NULL, window INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (name, window));
      CREATE TABLE IF NOT EXISTS bot_contacts (bot_id TEXT PRIMARY KEY, at INTEGER NOT NULL);
    `);
    this.statements = {
      countUp: this.db
        .prepare('INSERT INTO window_counters (name, window, count) VALUES (?, ?, 1) ON CONFLICT (name, window) DO UPDATE SET count = count + 1 RETURNING count')
        .pluck(),
      drop: this.db.prepare('DELETE FROM window_counters WHERE window < ?'),
      contact: this.db.prepare('INSERT INTO bot_contacts (bot_id, at) VALUES (?, ?) ON CONFLICT (bot_id) DO UPDATE SET at = max(at, excluded.at)'),
      contactOf: this.db.prepare('SELECT at FROM bot_contacts WHERE bot_id = ?').pluck(),
    };
  }

  async countUp(name: string, window: number): Promise<number> {
    return this.statements.countUp.get(name, window) as number;
  }

  async dropWindowsBefore(window: number): Promise<void> {
    this.statements.drop.run(window);
  }

  async noteContact(botId: string, atMs: number): Promise<void> {
    this.statements.contact.run(botId, Math.round(atMs));
  }

  async lastContacts(botIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const found = new Map<string, number>();
    for (const botId of botIds) {
      const at = this.statements.contactOf.get(botId) as number | undefined;
      if (at !== undefined) found.set(botId, at);
    }
    return found;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
