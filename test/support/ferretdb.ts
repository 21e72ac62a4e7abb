import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { freePort } from './free-port';
import { sharedPostgres, stopBeforeSharedPostgres } from './postgres';

const VERSION = 'v1.24.2';

/** Where scripts/install-test-servers.sh builds it (or FERRETDB_BIN). */
const ferretdbBinary = (): string =>
  process.env.FERRETDB_BIN ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'meeting-bot-service', `ferretdb-${VERSION}`, 'ferretdb');

/**
 * A throw-away FerretDB v1 (a MongoDB wire-protocol server) on a free loopback port, storing in SQLite
 * files of a temporary folder or in a database of the shared test PostgreSQL. Suites keep apart by each
 * taking a database of their own (`databaseName`).
 */
export interface Ferretdb {
  /** `mongodb://127.0.0.1:<port>/` */
  readonly url: string;
  readonly backend: FerretdbBackend;
  readonly startupMs: number;
  /** A database name no other suite uses. */
  databaseName(prefix?: string): string;
  stop(): Promise<void>;
}

export type FerretdbBackend = 'sqlite' | 'postgresql';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tail = (file: string, lines = 30): string => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
};

const reachable = async (url: string): Promise<boolean> => {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 1000 });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
};

/** Starts one server; `stop` ends it and removes its folder. */
export const startFerretdb = async (backend: FerretdbBackend = 'sqlite'): Promise<Ferretdb> => {
  const binary = ferretdbBinary();
  if (!existsSync(binary)) {
    throw new Error(`FerretDB ${VERSION} is not built at ${binary}: run scripts/install-system-packages.sh (it needs Go >= 1.24), or set FERRETDB_BIN`);
  }
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ferretdb-'));
  const data = path.join(dir, 'data');
  const state = path.join(dir, 'state');
  mkdirSync(data);
  mkdirSync(state);
  const logFile = path.join(dir, 'ferretdb.log');
  let child: ChildProcess | null = null;
  const killNow = () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const storage =
      backend === 'sqlite'
        ? ['--handler=sqlite', `--sqlite-url=file:${data}/`]
        : ['--handler=postgresql', `--postgresql-url=${await (await sharedPostgres()).createDatabase('ferretdb')}`];
    const port = await freePort();
    const out = openSync(logFile, 'a');
    child = spawn(
      binary,
      [...storage, `--listen-addr=127.0.0.1:${port}`, `--state-dir=${state}`, '--debug-addr=-', '--telemetry=disable', '--log-level=warn'],
      { stdio: ['ignore', out, out] },
    );
    closeSync(out);
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    const url = `mongodb://127.0.0.1:${port}/`;
    const deadline = Date.now() + 60_000;
    while (!(await reachable(url))) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`FerretDB exited at start:\n${tail(logFile)}`);
      if (Date.now() > deadline) throw new Error(`FerretDB did not answer within 60 s:\n${tail(logFile)}`);
      await sleep(100);
    }
    // Mocha's `exit: true` ends the process after the run; never leave a server behind if `stop` was skipped.
    process.on('exit', killNow);
    let stopped = false;
    const self: Ferretdb = {
      url,
      backend,
      startupMs: Date.now() - started,
      databaseName: (prefix = 'test') => `${prefix.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(6).toString('hex')}`,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        process.off('exit', killNow);
        child!.kill('SIGTERM');
        const gone = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
        if (!gone) {
          child!.kill('SIGKILL');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
    if (backend === 'postgresql') stopBeforeSharedPostgres(() => self.stop());
    return self;
  } catch (error) {
    killNow();
    throw error;
  }
};

let shared: Promise<Ferretdb> | null = null;

/**
 * One server for the whole test run: suites take databases of their own. It stores in the shared test
 * PostgreSQL, the stricter of its backends (it refuses NUL in strings, which its SQLite backend takes),
 * and the one a deployment beside the PostgreSQL event store would use. It is stopped by the root `after`
 * hook below, once every suite is done.
 */
export const sharedFerretdb = (): Promise<Ferretdb> => {
  shared ??= startFerretdb('postgresql');
  return shared;
};

if (typeof after === 'function') {
  after(async () => {
    if (shared) await (await shared.catch(() => null))?.stop();
    shared = null;
  });
}
