import type pg from 'pg';
import { openPoolWithSchema } from '../postgres/pool';
import type { SharedState } from './port';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS window_counters (name text NOT NULL, "window" bigint NOT NULL, count bigint NOT NULL, PRIMARY KEY (name, "window"));
  CREATE TABLE IF NOT EXISTS bot_contacts (bot_id text PRIMARY KEY, at bigint NOT NULL);
`;

/** Shared state in the event store's PostgreSQL database: one statement per change, atomic by the row's lock. */
export class PostgresSharedState implements SharedState {
  private constructor(private readonly pool: pg.Pool) {}

  static async connect(url: string): Promise<PostgresSharedState> {
    return new PostgresSharedState(await openPoolWithSchema(url, { purpose: 'shared state', maxConnections: 4 }, SCHEMA));
  }

  async countUp(name: string, window: number): Promise<number> {
    const { rows } = await this.pool.query<{ count: string }>(
      `INSERT INTO window_counters AS c (name, "window", count) VALUES ($1, $2, 1)
       ON CONFLICT (name, "window") DO UPDATE SET count = c.count + 1 RETURNING count`,
      [name, window],
    );
    return Number(rows[0]!.count);
  }

  async dropWindowsBefore(window: number): Promise<void> {
    await this.pool.query('DELETE FROM window_counters WHERE "window" < $1', [window]);
  }

  async noteContact(botId: string, atMs: number): Promise<void> {
    await this.pool.query(
      'INSERT INTO bot_contacts AS c (bot_id, at) VALUES ($1, $2) ON CONFLICT (bot_id) DO UPDATE SET at = greatest(c.at, excluded.at)',
      [botId, Math.round(atMs)],
    );
  }

  async lastContacts(botIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    if (botIds.length === 0) return new Map();
    const { rows } = await this.pool.query<{ bot_id: string; at: string }>('SELECT bot_id, at FROM bot_contacts WHERE bot_id = ANY($1)', [[...botIds]]);
    return new Map(rows.map((r) => [r.bot_id, Number(r.at)]));
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
