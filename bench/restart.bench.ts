/**
 * `npm run bench:restart [-- 10000 100000 1000000]`: how long the service takes to be ready, and how much
 * memory it holds then, with N finished bots in its log, against the time to open that log (the baseline,
 * measured in the same run). The service runs as its own process (`src/main.ts`, as `npm start` runs it).
 *
 * The log is made quickly: one bot is made through the API and ended (with its ledger settled), as the
 * service makes them, and its events are written again for every other bot (a new id, a meeting of its
 * own, 30 s after the one before), straight into the SQLite event store (grouped appends), not through HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import bunyan from 'bunyan';
import type { NewEvent, RecordedEvent } from '../src/adapters/event-store/port';
import { SqliteEventStore } from '../src/adapters/event-store/sqlite-event-store';
import { meetingLockStreamFor } from '../src/commands/create-bot';
import { startService } from '../src/service';
import { benchServiceConfig, BENCH_ADMIN_TOKEN } from './lib/bench-service-config';

const SIZES = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
/** BENCH_MEMORY_STORE=0 leaves the memory read store out (it holds every document: gigabytes at a million bots). */
const withMemory = process.env.BENCH_MEMORY_STORE !== '0';
const sizes = SIZES.length > 0 ? SIZES : [10_000, 100_000, 1_000_000];
const root = path.resolve(__dirname, '..');
const MEETING = 'https://meet.google.com/abc-defg-hij';

interface BotTemplate {
  readonly teamId: string;
  /** the team's key: its ApiKeyIssued is written into every log */
  readonly apiKey: string;
  readonly botId: string;
  /** the team's creation, its key and tokens */
  readonly teamEvents: readonly RecordedEvent[];
  /** the events of one bot's life, in log order */
  readonly events: readonly RecordedEvent[];
}

/** One bot made and ended by the service itself, whose events are the pattern of every other. */
const makeTemplate = async (): Promise<BotTemplate> => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-restart-template-'));
  const service = await startService(benchServiceConfig(dataDir), { log: bunyan.createLogger({ name: 'bench', level: 'fatal' }) });
  try {
    const post = (url: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${service.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body ?? {}) }).then((r) => r.json());
    const team = await post('/admin/teams', { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` }, { name: 'restart', tokens: 1_000_000_000, daily_bot_cap: 1_000_000 });
    const key = { 'x-service-api-key': team.data.api_key };
    const bot = await post('/v2/bots', key, { meeting_url: MEETING, bot_name: 'Restart', extra: { customer: 'acme' } });
    await post(`/v2/bots/${bot.data.bot_id}/leave`, key);
    // The settlement of its reservation is the last event a finished bot adds.
    for (let tries = 0; ; tries++) {
      const all = await service.eventStore.readAll({});
      if (all.some((e) => e.type === 'TokensReleased' || e.type === 'TokensCharged')) {
        const firstOfBot = all.findIndex((e) => e.type === 'TokensReserved');
        const ofBot = (e: RecordedEvent) => e.streamName.includes(bot.data.bot_id) || JSON.stringify(e.data).includes(bot.data.bot_id);
        return { teamId: team.data.team_id, apiKey: team.data.api_key, botId: bot.data.bot_id, teamEvents: all.slice(0, firstOfBot), events: all.slice(firstOfBot).filter(ofBot) };
      }
      if (tries > 100) throw new Error('the template bot was never settled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

/** A bot's meeting of its own, as most bots have: abc-defg-hij codes made from its number. */
const meetingOf = (i: number): string => {
  const letters = Array.from({ length: 10 }, (_, k) => String.fromCharCode(97 + (Math.floor(i / 26 ** k) % 26))).join('');
  return `https://meet.google.com/${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7)}`;
};

/** Bots one after another, this far apart, the last one now: 100 000 bots are a month, a million a year. */
const SPACING_MS = 30_000;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/**
 * Writes `bots` copies of the template's bot, each with a new bot id, its own meeting (and so its own
 * meeting lock stream), and its times moved back so that the bots follow one another, and the team once.
 */
const writeLog = async (file: string, template: BotTemplate, bots: number): Promise<number> => {
  const store = new SqliteEventStore(file);
  const templateLock = meetingLockStreamFor(template.teamId, MEETING);
  const copyOf = (e: RecordedEvent, i: number, botId: string): { stream: string; event: NewEvent } => {
    const meeting = meetingOf(i);
    const earlierMs = (bots - i) * SPACING_MS;
    const json = JSON.stringify(e.data)
      .replaceAll(template.botId, botId)
      .replaceAll(MEETING, meeting)
      .replace(ISO_TIME, (time) => new Date(Date.parse(time) - earlierMs).toISOString());
    const stream = e.streamName === templateLock ? meetingLockStreamFor(template.teamId, meeting) : e.streamName.replaceAll(template.botId, botId);
    return { stream, event: { id: randomUUID(), type: e.type, data: JSON.parse(json) as Record<string, unknown> } };
  };
  let written = 0;
  for (const e of template.teamEvents) await store.appendToStream(e.streamName, [{ id: randomUUID(), type: e.type, data: e.data }], 'any');
  const GROUP = 500;
  for (let first = 0; first < bots; first += GROUP) {
    const appends: Promise<unknown>[] = [];
    for (let i = first; i < Math.min(bots, first + GROUP); i++) {
      const botId = randomUUID();
      for (const e of template.events) {
        const { stream, event } = copyOf(e, i, botId);
        appends.push(store.appendToStream(stream, [event], 'any'));
      }
    }
    await Promise.all(appends);
    written += appends.length;
  }
  await store.close();
  return written + template.teamEvents.length;
};

const rssMiB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
};

/** Runs a script as its own process until it prints `ready` (or the service answers /health), timing it. */
const timedProcess = async (args: string[], env: Record<string, string>, readyWhen: (output: string) => boolean): Promise<{ ms: number; rssMiB: number; child: ChildProcess }> => {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited: ${output}`);
    if (readyWhen(output)) return { ms: performance.now() - started, rssMiB: rssMiB(child.pid!), child };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** The baseline: a process that opens the log and reads its last event, nothing else. */
const OPEN_LOG = `
const { SqliteEventStore } = require('./src/adapters/event-store/sqlite-event-store');
const store = new SqliteEventStore(process.env.LOG_FILE);
store.readAll({ fromPosition: BigInt(process.env.LAST_POSITION) - 1n, maxCount: 1 }).then(async (last) => {
  console.log(last.length === 1 ? 'ready' : 'no such position');
  await store.close();
});
`;

/** For reading the figures: a process that reads every event of the log once. */
const READ_LOG = `
const { SqliteEventStore } = require('./src/adapters/event-store/sqlite-event-store');
const store = new SqliteEventStore(process.env.LOG_FILE);
(async () => {
  let from;
  for (;;) {
    const batch = await store.readAll({ ...(from === undefined ? {} : { fromPosition: from }), maxCount: 1000 });
    if (batch.length < 1000) break;
    from = batch[batch.length - 1].position;
  }
  console.log('ready');
  await store.close();
})();
`;

const freePort = async (): Promise<number> => {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
};

/** Whether every subscriber's checkpoint has reached the end of the log (the first start goes on catching up after it is ready). */
const subscribersAt = (dataDir: string, lastPosition: bigint): boolean => {
  const db = new Database(path.join(dataDir, 'checkpoints.sqlite3'), { readonly: true, fileMustExist: true });
  try {
    const positions = db.prepare("SELECT position FROM checkpoints WHERE name LIKE 'subscriber:%'").pluck().all() as string[];
    return positions.length > 0 && positions.every((p) => BigInt(p) >= lastPosition);
  } finally {
    db.close();
  }
};

const waitFor = async (condition: () => boolean): Promise<number> => {
  const started = performance.now();
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 200));
  return performance.now() - started;
};

/** The first bot a team makes after a restart: its ledger and its meeting's lock are folded then. */
const firstCreation = async (port: number, apiKey: string): Promise<number> => {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/v2/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': apiKey },
    body: JSON.stringify({ meeting_url: MEETING, bot_name: 'After the restart' }),
  });
  if (response.status !== 201) throw new Error(`the first creation answered ${response.status}: ${await response.text()}`);
  return performance.now() - started;
};

const startServiceProcess = async (dataDir: string, readStore: 'sqlite' | 'memory') => {
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', BOT_SLOTS: '0', LOG_LEVEL: 'info', SERVICE_SECRET: 'b'.repeat(64), READ_STORE: readStore, ADMIN_TOKEN: BENCH_ADMIN_TOKEN };
  // The service listens at once but answers only once ready: its "service listening" line says so.
  return { port, ...(await timedProcess(['src/main.ts'], env, (output) => output.includes('"msg":"service listening"'))) };
};

const line = (what: string, ms: number, baselineMs: number, rss: number | null) =>
  `${what.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(8)} s  x${(ms / baselineMs).toFixed(1).padStart(6)}${rss === null ? '' : `   RSS ${rss.toFixed(0).padStart(6)} MiB`}`;

const main = async () => {
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  const template = await makeTemplate();
  console.log(`one finished bot is ${template.events.length} events (${template.events.map((e) => e.type).join(', ')})`);
  const { apiKey } = template;
  // What a start costs with nothing in the log: loading the service and opening its stores.
  const emptyDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-restart-empty-'));
  try {
    const empty = await startServiceProcess(emptyDir, 'sqlite');
    await stopped(empty.child);
    console.log(line('reference: the service on an empty log', empty.ms, empty.ms, empty.rssMiB));
  } finally {
    rmSync(emptyDir, { recursive: true, force: true });
  }
  for (const bots of sizes) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-restart-'));
    try {
      const logFile = path.join(dataDir, 'events.sqlite3');
      const writeStarted = performance.now();
      const events = await writeLog(logFile, template, bots);
      const log = new SqliteEventStore(logFile);
      const last = (await log.readAll({ fromPosition: BigInt(events) - 1n, maxCount: 1 }))[0]!;
      await log.close();
      console.log(`\n${bots} finished bots: ${events} events written in ${((performance.now() - writeStarted) / 1000).toFixed(1)} s`);

      const baseline = await timedProcess(['--eval', OPEN_LOG], { LOG_FILE: logFile, LAST_POSITION: String(last.position) }, (o) => o.includes('ready'));
      await stopped(baseline.child);
      console.log(line('baseline: open the log (a process)', baseline.ms, baseline.ms, baseline.rssMiB));
      const read = await timedProcess(['--eval', READ_LOG], { LOG_FILE: logFile }, (o) => o.includes('ready'));
      await stopped(read.child);
      console.log(line('read the whole log once (a process)', read.ms, baseline.ms, read.rssMiB));

      const first = await startServiceProcess(dataDir, 'sqlite');
      console.log(line('SQLite read store, first start (folds the log)', first.ms, baseline.ms, first.rssMiB));
      // A service that ran long enough: every subscriber has caught up before it stops.
      const caughtUpMs = first.ms + (await waitFor(() => subscribersAt(dataDir, last.position)));
      console.log(line('  ... every subscriber caught up', caughtUpMs, baseline.ms, rssMiB(first.child.pid!)));
      await stopped(first.child);
      const again = await startServiceProcess(dataDir, 'sqlite');
      console.log(line('SQLite read store, restart (resumes)', again.ms, baseline.ms, again.rssMiB));
      const creationMs = await firstCreation(again.port, apiKey);
      console.log(line('  ... then its first POST /v2/bots', creationMs, baseline.ms, rssMiB(again.child.pid!)));
      await stopped(again.child);
      if (withMemory) {
        const memory = await startServiceProcess(dataDir, 'memory');
        await stopped(memory.child);
        console.log(line('memory read store, start (folds the log)', memory.ms, baseline.ms, memory.rssMiB));
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
