import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 (scripts/install-test-servers.sh installs it when it is missing). */
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A throw-away PostgreSQL 15 server on a free loopback port, its data in a temporary folder, trust
 * authentication for the superuser `postgres`, and durability turned off (nothing of it must outlive the
 * run). Suites keep apart by each taking a database of its own (`createDatabase`).
 */
export interface Postgres {
  readonly port: number;
  /** how long initdb and the start took, measured */
  readonly startupMs: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  /** A new empty database with a unique name; returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Runs one statement as the superuser in the `postgres` database (tests that poke at the server). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: readonly unknown[]): Promise<pg.QueryResult<R>>;
  stop(): Promise<void>;
}

/** As root, the server's files and processes belong to `postgres`: PostgreSQL refuses to run as root. */
const asServerUser = (command: string, args: readonly string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];

const tail = (file: string, lines = 30): string => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
};

/** Starts one server; `stop` ends it and removes its folder. */
export const startPostgres = async (): Promise<Postgres> => {
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'postgres-'));
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'run');
  const logFile = path.join(dir, 'server.log');
  mkdirSync(sockets);
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    for (const owned of [dir, sockets]) chownSync(owned, uid, gid);
  }
  const pgCtl = (...args: string[]) => asServerUser(path.join(PG_BIN, 'pg_ctl'), ['-D', data, ...args]);
  const stopNow = () => {
    try {
      const [command, args] = pgCtl('-m', 'immediate', '-w', 'stop');
      execFileSync(command, args, { stdio: 'ignore', timeout: 30_000 });
    } catch {
      // not running (or already gone): nothing to stop
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [initdb, initdbArgs] = asServerUser(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await run(initdb, initdbArgs, { timeout: 60_000 });
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${sockets}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    const [command, args] = pgCtl('-l', logFile, '-o', settings, '-w', '-t', '60', 'start');
    await run(command, args, { timeout: 90_000 }).catch((error: Error) => {
      throw new Error(`PostgreSQL did not start: ${error.message}\n${tail(logFile)}`);
    });
    const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
    const query = async <R extends pg.QueryResultRow>(sql: string, params: readonly unknown[] = []) => {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        return await client.query<R>(sql, params as unknown[]);
      } finally {
        await client.end();
      }
    };
    let stopped = false;
    const killOnExit = () => stopNow();
    // Mocha's `exit: true` ends the process after the run; never leave a server behind if `stop` was skipped.
    process.on('exit', killOnExit);
    return {
      port,
      startupMs: Date.now() - started,
      url,
      query,
      createDatabase: async (prefix = 'test') => {
        const name = `${prefix.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(6).toString('hex')}`;
        await query(`CREATE DATABASE ${name}`);
        return url(name);
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        process.off('exit', killOnExit);
        stopNow();
      },
    };
  } catch (error) {
    stopNow();
    throw error;
  }
};

const postgresUser = (): { uid: number; gid: number } => {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no user "postgres" on this machine: run scripts/install-system-packages.sh (it installs PostgreSQL 15)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
};

let shared: Promise<Postgres> | null = null;

/**
 * One server for the whole test run (test files take databases of their own). It is stopped by the root
 * `after` hook below, once every suite is done.
 */
export const sharedPostgres = (): Promise<Postgres> => {
  shared ??= startPostgres();
  return shared;
};

/** A fresh database on the shared server, for one suite. */
export const freshPostgresDatabase = async (prefix?: string): Promise<string> => (await sharedPostgres()).createDatabase(prefix);

/** Servers that store in the shared PostgreSQL (FerretDB): stopped before it is. */
const dependents: (() => Promise<void>)[] = [];
export const stopBeforeSharedPostgres = (stop: () => Promise<void>): void => void dependents.push(stop);

if (typeof after === 'function') {
  after(async () => {
    for (const stop of dependents.splice(0)) await stop();
    if (shared) await (await shared.catch(() => null))?.stop();
    shared = null;
  });
}
