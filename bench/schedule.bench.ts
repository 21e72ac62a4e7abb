/**
 * `npm run bench:schedule`: scheduled bots and batches, through the public API of the whole service
 * (SQLite event store, memory read store, BOT_SLOTS=0: bots are queued, none runs, no Chromium).
 *
 *   1. 1 000 bots scheduled for the same minute, twice: all at its first second (the worst case: one
 *      team, one instant), then spread evenly over it. Figures: when each was queued against its
 *      join_at and against the time the scheduler meant to queue it (join_at - lead), p50/p99/max.
 *      Then 1 000 bots all overdue at once (the service back after an outage, the clock moved on): the
 *      scheduler's cost per bot flat out, against a baseline of as many bots admitted one after another
 *      by the command itself (no scheduler, no HTTP) in the same run.
 *   2. A 100-item POST /v2/bots/batch against 100 single POST /v2/bots in the same run, one after another
 *      and 16 at a time; the same for POST /v2/bots/scheduled/batch.
 *
 * Nothing here asserts a time. Sizes: BENCH_SCHEDULED (1000), BENCH_BATCH_ROUNDS (5).
 */
import { createApiClient } from '../client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import { createBot } from '../src/commands/create-bot';
import { defaultBotConfig } from '../src/domain/bot/bot-config';
import { SCHEDULED_BOT_LEAD_MS } from '../src/domain/bot/schedule-timing';
import { startService, type RunningService } from '../src/service';
import { BENCH_ADMIN_TOKEN, benchServiceConfig } from './lib/bench-service-config';
import { intFromEnv } from './lib/env';

const SCHEDULED = intFromEnv('BENCH_SCHEDULED', 1000);
const BATCH_ROUNDS = intFromEnv('BENCH_BATCH_ROUNDS', 5);
const BATCH_SIZE = 100;
const ADMIN = BENCH_ADMIN_TOKEN;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const median = (values: readonly number[]) => percentile(values, 50);
const ms = (value: number) => `${value.toFixed(1)} ms`;
const s = (value: number) => `${(value / 1000).toFixed(2)} s`;

let meetingCounter = 0;
/** A meeting of its own for every bot, as a team's calendar would have them. */
const nextMeeting = () => `https://meet.google.com/abc-defg-${String(meetingCounter++).padStart(6, '0')}`;
const botBody = (extra: Record<string, unknown> = {}) => ({ meeting_url: nextMeeting(), bot_name: 'Bench', ...extra });

interface Bench {
  readonly service: RunningService;
  /** moves the service's clock away from the real one (0: the real clock) */
  readonly setClockOffset: (ms: number) => void;
  readonly teamId: string;
  readonly post: (path: string, body: unknown) => Promise<{ status: number; body: any }>;
}

const startBench = async (dataDir: string): Promise<Bench> => {
  let clockOffset = 0;
  const service = await startService(
    benchServiceConfig(dataDir),
    { log: bunyan.createLogger({ name: 'bench', level: 'fatal' }), clock: () => new Date(Date.now() + clockOffset) },
  );
  const admin = await fetch(`${service.url}/admin/teams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', tokens: 1_000_000, daily_bot_cap: 1_000_000, rate_limit_per_second: 100_000 }),
  });
  const team = (await admin.json()).data;
  // The public API through the project's typed client (client/), paths as the bench names them.
  const api = createApiClient({ baseUrl: service.url, apiKey: team.api_key });
  const send = async (urlPath: string, body: unknown) => {
    const post = api.request as (method: 'post', path: string, init: { body: unknown }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await post('post', urlPath, { body });
    return { status: response.status, body: response.ok ? data : error };
  };
  // A kept-alive connection the server closed while idle (its 5 s keep-alive) resets the first request
  // sent on it: sent again on a fresh one (a bench tolerates the rare bot made twice).
  const post = async (urlPath: string, body: unknown): Promise<{ status: number; body: any }> => send(urlPath, body).catch(() => send(urlPath, body));
  return { service, teamId: team.team_id, post, setClockOffset: (ms) => (clockOffset = ms) };
};

// ---------------------------------------------------------------------------------------------------
// 1. 1 000 bots for the same minute

/** The next whole minute that leaves `marginMs` to schedule everything before the first bot is due. */
const nextMinuteAfter = (marginMs: number): number => Math.ceil((Date.now() + marginMs) / 60_000) * 60_000;

const scheduleAll = async (bench: Bench, joinAts: readonly string[]): Promise<string[]> => {
  const ids: string[] = [];
  for (let start = 0; start < joinAts.length; start += BATCH_SIZE) {
    const items = joinAts.slice(start, start + BATCH_SIZE).map((join_at) => botBody({ join_at }));
    const response = await bench.post('/v2/bots/scheduled/batch', items);
    if (response.status !== 200 || response.body.failed > 0) throw new Error(`scheduling failed: ${JSON.stringify(response.body).slice(0, 300)}`);
    ids.push(...response.body.data.map((made: { bot_id: string }) => made.bot_id));
  }
  return ids;
};

/** When each bot was queued (its BotCreated), waiting until every one of them was. */
const queueingTimes = async (bench: Bench, ids: readonly string[]): Promise<Map<string, number>> => {
  const wanted = new Set(ids);
  const queued = new Map<string, number>();
  let from: bigint | undefined;
  const deadline = Date.now() + 10 * 60_000;
  while (queued.size < wanted.size) {
    if (Date.now() > deadline) throw new Error(`only ${queued.size} of ${wanted.size} bots were queued`);
    const events = await bench.service.eventStore.readAll({ ...(from === undefined ? {} : { fromPosition: from }), maxCount: 5000 });
    for (const e of events) {
      if (e.type === 'BotCreated' && wanted.has(e.data.bot_id as string)) queued.set(e.data.bot_id as string, Date.parse(e.data.created_at as string));
      if (e.type === 'BotFailed' && wanted.has(e.data.bot_id as string)) throw new Error(`bot ${e.data.bot_id} failed: ${e.data.error_code}`);
    }
    if (events.length > 0) from = events[events.length - 1]!.position;
    else await sleep(200);
  }
  return queued;
};

const benchOneMinute = async (bench: Bench, label: string, offsetOf: (i: number) => number): Promise<number[]> => {
  // Time to schedule them all, and for the scheduler to start its burst early, before the lead time.
  const minute = nextMinuteAfter(90_000 + SCHEDULED_BOT_LEAD_MS);
  const joinAts = Array.from({ length: SCHEDULED }, (_, i) => new Date(minute + offsetOf(i)).toISOString());
  const scheduleStarted = performance.now();
  const ids = await scheduleAll(bench, joinAts);
  console.log(`   ${label}: ${SCHEDULED} bots scheduled in ${s(performance.now() - scheduleStarted)}; waiting for ${new Date(minute).toISOString()}`);
  const queued = await queueingTimes(bench, ids);
  return ids.map((id, i) => queued.get(id)! - Date.parse(joinAts[i]!));
};

const reportSpread = (label: string, lateMs: readonly number[]) => {
  const fromQueueingTime = lateMs.map((late) => late + SCHEDULED_BOT_LEAD_MS);
  console.log(`   ${label}`);
  console.log(`     queued - join_at:           p50 ${s(percentile(lateMs, 50))}   p99 ${s(percentile(lateMs, 99))}   max ${s(Math.max(...lateMs))}`);
  console.log(`     queued - (join_at - lead):  p50 ${s(percentile(fromQueueingTime, 50))}   p99 ${s(percentile(fromQueueingTime, 99))}   max ${s(Math.max(...fromQueueingTime))}`);
};

/** The service was down past their time (less than 5 minutes): every bot is due at once and queued flat out. */
const benchOverdue = async (bench: Bench): Promise<number> => {
  const joinAts = Array.from({ length: SCHEDULED }, () => new Date(Date.now() + 3_600_000).toISOString());
  const ids = await scheduleAll(bench, joinAts);
  const started = performance.now();
  bench.setClockOffset(3_600_000 + 60_000);
  try {
    await queueingTimes(bench, ids);
    return performance.now() - started;
  } finally {
    bench.setClockOffset(0);
  }
};

/** Baseline: the same number of bots admitted one after another by the command itself (no scheduler, no HTTP). */
const admitDirectly = async (bench: Bench): Promise<number> => {
  const started = performance.now();
  for (let i = 0; i < SCHEDULED; i++) {
    await createBot(bench.service.commands, {
      team_id: bench.teamId,
      meeting_url: nextMeeting(),
      platform: 'mt',
      bot_name: 'Baseline',
      extra: null,
      config: defaultBotConfig(),
      created_by: null,
    });
  }
  return performance.now() - started;
};

// ---------------------------------------------------------------------------------------------------
// 2. A batch of 100 against 100 single requests

const timed = async <T>(run: () => Promise<T>): Promise<number> => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

const singlesOneAfterAnother = (bench: Bench, urlPath: string, body: () => unknown) =>
  timed(async () => {
    for (let i = 0; i < BATCH_SIZE; i++) {
      const response = await bench.post(urlPath, body());
      if (response.status !== 201) throw new Error(`${urlPath} answered ${response.status}`);
    }
  });

const singlesSixteenAtATime = (bench: Bench, urlPath: string, body: () => unknown) =>
  timed(async () => {
    let sent = 0;
    const worker = async () => {
      while (sent < BATCH_SIZE) {
        sent++;
        const response = await bench.post(urlPath, body());
        if (response.status !== 201) throw new Error(`${urlPath} answered ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  });

const oneBatch = (bench: Bench, urlPath: string, body: () => unknown) =>
  timed(async () => {
    const response = await bench.post(urlPath, Array.from({ length: BATCH_SIZE }, body));
    if (response.status !== 200 || response.body.data.succeeded !== BATCH_SIZE) throw new Error(`${urlPath} answered ${JSON.stringify(response.body).slice(0, 300)}`);
  });

const benchBatch = async (bench: Bench, label: string, single: string, batch: string, body: () => unknown) => {
  // Warm-up of every path, so that none pays for JIT alone.
  await singlesOneAfterAnother(bench, single, body);
  await oneBatch(bench, batch, body);
  const sequential: number[] = [];
  const parallel: number[] = [];
  const batched: number[] = [];
  for (let round = 0; round < BATCH_ROUNDS; round++) {
    sequential.push(await singlesOneAfterAnother(bench, single, body));
    batched.push(await oneBatch(bench, batch, body));
    parallel.push(await singlesSixteenAtATime(bench, single, body));
  }
  console.log(`   ${label} (medians of ${BATCH_ROUNDS} rounds)`);
  console.log(`     100 single requests, one after another: ${ms(median(sequential))}`);
  console.log(`     100 single requests, 16 at a time:      ${ms(median(parallel))}`);
  console.log(`     one batch of 100:                        ${ms(median(batched))}`);
  console.log(`     ratio: the batch takes ${(median(batched) / median(sequential)).toFixed(2)} of the one-after-another singles, ${(median(batched) / median(parallel)).toFixed(2)} of the 16-at-a-time ones`);
};

const main = async () => {
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`scheduler lead time: ${SCHEDULED_BOT_LEAD_MS} ms\n`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `mbs-bench-schedule-${randomUUID().slice(0, 8)}-`));
  const bench = await startBench(dataDir);
  try {
    console.log(`1. ${SCHEDULED} bots scheduled for the same minute (one team, BOT_SLOTS=0)`);
    const sameInstant = await benchOneMinute(bench, 'all at the first second of the minute', () => 0);
    const spread = await benchOneMinute(bench, 'spread evenly over the minute', (i) => Math.floor((i * 60_000) / SCHEDULED));
    reportSpread('all at the first second:', sameInstant);
    reportSpread('spread over the minute:', spread);
    const overdueMs = await benchOverdue(bench);
    const baselineMs = await admitDirectly(bench);
    console.log(`   ${SCHEDULED} bots overdue at once (back after an outage), queued flat out: ${ms(overdueMs / SCHEDULED)} a bot`);
    console.log(`     baseline, ${SCHEDULED} admissions one after another by the command (no scheduler, no HTTP): ${ms(baselineMs / SCHEDULED)} a bot`);
    console.log(`     ratio: the scheduler takes ${(overdueMs / baselineMs).toFixed(2)} x the baseline's time`);
    console.log(`\n2. batches of ${BATCH_SIZE} against ${BATCH_SIZE} single requests`);
    await benchBatch(bench, 'POST /v2/bots/batch', '/v2/bots', '/v2/bots/batch', () => botBody());
    const farAhead = () => new Date(Date.now() + 24 * 3_600_000).toISOString();
    await benchBatch(bench, 'POST /v2/bots/scheduled/batch', '/v2/bots/scheduled', '/v2/bots/scheduled/batch', () => botBody({ join_at: farAhead() }));
  } finally {
    await bench.service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
