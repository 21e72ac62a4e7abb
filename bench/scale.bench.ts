/**
 * `npm run bench:scale`: what more api instances on one shared PostgreSQL give (issue 19). Every
 * configuration runs in the same run, as real service processes (`src/main.ts`, `ROLE=api`) behind the
 * same round-robin load balancer (test/support/round-robin-proxy.ts), so the ratios are the figures:
 *
 *   1. POST /v2/bots: creations per second and p99 through the load balancer with 1, 2 and 3 api
 *      instances on PostgreSQL, and the embedded default (one process on SQLite) behind the same load
 *      balancer. Rounds go over 1..3 instances in alternating order (the log grows as they run; extra
 *      instances are killed and started again, so an idle one does not project the log on the side), and
 *      the medians are shown.
 *   2. Webhook delivery: messages per second from the append of bots' ends to their arrival at a receiver,
 *      with 1, 2 and 3 instances (delivery runs under one lease, so in one of them).
 *   3. Failover: from the SIGKILL of the instance holding `webhook-delivery` to the first message its
 *      successor delivers, against the lease period (`LEASE_TTL_SECONDS`, its default 15 s).
 *
 * Everything (PostgreSQL, the instances, the load balancer, the load and the receiver) shares this
 * machine's cores: more instances cannot bring more CPU here, so a ratio near 1 says the shared store
 * costs little, not what a cluster of machines would gain. Nothing asserts a time. Sizes:
 * BENCH_SCALE_REQUESTS (500), BENCH_SCALE_MESSAGES (200), BENCH_SCALE_ROUNDS (3).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEventStore } from '../src/adapters/event-store';
import type { EventStore } from '../src/adapters/event-store/port';
import { defaultBotConfig } from '../src/domain/bot/bot-config';
import { botStreamName } from '../src/domain/bot/bot-events';
import { adminClient, apiClient } from '../test/support/http-client';
import { startPostgres } from '../test/support/postgres';
import { RoundRobinProxy } from '../test/support/round-robin-proxy';
import { Cluster } from '../test/support/scale-out-cluster';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { intFromEnv } from './lib/env';
import { runLoad, type LoadResult } from './lib/load';
import { startReceiver } from './lib/receiver';

const REQUESTS = intFromEnv('BENCH_SCALE_REQUESTS', 500);
const MESSAGES = intFromEnv('BENCH_SCALE_MESSAGES', 200);
const ROUNDS = intFromEnv('BENCH_SCALE_ROUNDS', 3);
const CONCURRENCY = 16;
const MOST_INSTANCES = 3;
/** The default lease period: failover is measured as a user would get it. */
const LEASE_TTL_SECONDS = 15;

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');
const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** A team that nothing limits, and a client of its key. */
const unlimitedTeam = async (lb: string) => {
  const created = await adminClient(lb).post('/admin/teams', { name: 'bench', tokens: 1_000_000, daily_bot_cap: 1_000_000, rate_limit_per_second: 100_000 });
  if (created.status !== 201) throw new Error(`team: ${JSON.stringify(created.body)}`);
  return created.body.data as { team_id: string; api_key: string };
};

const createBots = async (lb: string): Promise<LoadResult> => {
  const team = await unlimitedTeam(lb);
  const body = () => JSON.stringify({ meeting_url: `https://meet.google.com/abc-defg-hij`, bot_name: 'Bench', extra: { n: 1 } });
  const load = (total: number) =>
    runLoad({ url: `${lb}/v2/bots`, method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api-key': team.api_key }, body, total, concurrency: CONCURRENCY });
  await load(Math.ceil(REQUESTS / 5)); // warm-up: every instance compiles its hot paths before it is timed
  const result = await load(REQUESTS);
  if (result.statuses[201] !== REQUESTS) throw new Error(`not every creation succeeded: ${JSON.stringify(result.statuses)}`);
  return result;
};


/** A bot's creation and failure appended as the service appends them: one `bot.failed` message per endpoint. */
const appendBotEnd = async (log: EventStore, teamId: string): Promise<string> => {
  const botId = randomUUID();
  const now = new Date().toISOString();
  await log.appendToStream(
    botStreamName(botId),
    [
      {
        id: randomUUID(),
        type: 'BotCreated',
        data: { bot_id: botId, team_id: teamId, meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'Bench', extra: null, config: defaultBotConfig(), created_by: null, created_at: now },
      },
      { id: randomUUID(), type: 'BotFailed', data: { bot_id: botId, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'bench', usage: { recorded_seconds: 0, waiting_room_seconds: 0 }, at: now } },
    ],
    'no_stream',
  );
  return botId;
};

/** A new team with one endpoint at a new receiver (the messages of earlier rounds go elsewhere). */
const teamWithReceiver = async (lb: string) => {
  const team = await unlimitedTeam(lb);
  const receiver = await startReceiver();
  const added = await apiClient(lb, team.api_key).post('/v2/webhooks', { url: receiver.url, events: ['bot.failed'] });
  if (added.status !== 201) throw new Error(`webhook endpoint: ${JSON.stringify(added.body)}`);
  return { teamId: team.team_id, receiver };
};

const deliver = async (lb: string, log: EventStore): Promise<Figures> => {
  const { teamId, receiver } = await teamWithReceiver(lb);
  try {
    const appendedAt = new Map<string, number>();
    const started = performance.now();
    for (let i = 0; i < MESSAGES; i++) appendedAt.set(await appendBotEnd(log, teamId), performance.now());
    await receiver.whenAll(MESSAGES);
    const last = Math.max(...receiver.arrivals.values());
    const latencies = [...appendedAt].map(([id, at]) => receiver.arrivals.get(id)! - at).sort((a, b) => a - b);
    return { perSecond: MESSAGES / ((last - started) / 1000), p99Ms: percentile(latencies, 99) };
  } finally {
    receiver.close();
  }
};

/** Kills the holder of `webhook-delivery` and times the first message delivered after it. */
const failover = async (cluster: Cluster, log: EventStore): Promise<number> => {
  const { teamId, receiver } = await teamWithReceiver(cluster.proxy.url);
  try {
    const holder = await cluster.holderOf('webhook-delivery');
    if (!holder) throw new Error('nobody holds webhook-delivery');
    const killedAt = performance.now();
    await holder.api.kill();
    const botId = await appendBotEnd(log, teamId);
    await receiver.whenAll(1);
    return receiver.arrivals.get(botId)! - killedAt;
  } finally {
    receiver.close();
  }
};

interface Figures {
  readonly perSecond: number;
  readonly p99Ms: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const medianOf = (rounds: readonly Figures[]): Figures => ({ perSecond: median(rounds.map((r) => r.perSecond)), p99Ms: median(rounds.map((r) => r.p99Ms)) });

const figureLine = (name: string, unit: string, f: Figures, baseline: Figures | null) =>
  `${name.padEnd(38)} ${f.perSecond.toFixed(0).padStart(6)} ${unit}   p99 ${f.p99Ms.toFixed(0).padStart(6)} ms` +
  (baseline ? `   throughput x${(f.perSecond / baseline.perSecond).toFixed(2)}, p99 x${(f.p99Ms / baseline.p99Ms).toFixed(2)}` : '   (baseline)');

/** The embedded default: one process on SQLite in its own folder, behind a load balancer of its own. */
const embeddedDefault = async (): Promise<LoadResult> => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-scale-'));
  const service = new ServiceProcess(await freePort(), { DATA_DIR: dataDir, BOT_SLOTS: '0' });
  const proxy = await new RoundRobinProxy().start();
  try {
    await service.start();
    proxy.setUpstreams([service.url]);
    return await createBots(proxy.url);
  } finally {
    await service.kill();
    await proxy.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const main = async () => {
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; load average at the start ${loadAverage()}`);
  console.log(
    `POST /v2/bots: ${REQUESTS} requests, ${CONCURRENCY} at once, through a round-robin load balancer; webhooks: ${MESSAGES} bots' ends appended to the log; ` +
      `${ROUNDS} rounds over 1..${MOST_INSTANCES} instances in alternating order, medians shown\n`,
  );
  const postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase('bench_scale');
  const cluster = await Cluster.start({ databaseUrl, apis: 1, workers: 0, leaseTtlSeconds: LEASE_TTL_SECONDS, env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: '1' } });
  const log = await openEventStore({ databaseUrl, sqlitePath: '' });
  try {
    const lb = cluster.proxy.url;
    const creations = new Map<number, LoadResult[]>();
    const deliveries = new Map<number, Figures[]>();
    const counts = Array.from({ length: MOST_INSTANCES }, (_, i) => i + 1);
    // Alternating order (1..N, N..1, ...), so that the log's growth weighs on every count alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of round % 2 === 0 ? counts : [...counts].reverse()) {
        await cluster.scaleApisTo(n);
        creations.set(n, [...(creations.get(n) ?? []), await createBots(lb)]);
        deliveries.set(n, [...(deliveries.get(n) ?? []), await deliver(lb, log)]);
      }
    }
    const embedded = await embeddedDefault();

    const creationBaseline = medianOf(creations.get(1)!);
    console.log('POST /v2/bots through the load balancer (the ratio to one instance on PostgreSQL is the figure)');
    for (const n of counts) console.log(figureLine(`PostgreSQL, ${n} api instance${n === 1 ? '' : 's'}`, 'bots/s', medianOf(creations.get(n)!), n === 1 ? null : creationBaseline));
    console.log(figureLine('embedded default (SQLite, 1 process)', 'bots/s', embedded, creationBaseline));
    const deliveryBaseline = medianOf(deliveries.get(1)!);
    console.log('\nwebhook delivery, append to arrival (a burst: p99 is queueing; one lease holder delivers, however many instances)');
    for (const n of counts) console.log(figureLine(`PostgreSQL, ${n} api instance${n === 1 ? '' : 's'}`, 'msg/s ', medianOf(deliveries.get(n)!), n === 1 ? null : deliveryBaseline));

    await cluster.scaleApisTo(2);
    const tookMs = await failover(cluster, log);
    console.log(`\nfailover: SIGKILL of the webhook-delivery holder to the first message its successor delivered: ${(tookMs / 1000).toFixed(1)} s, ${(tookMs / 1000 / LEASE_TTL_SECONDS).toFixed(2)} of the lease period (${LEASE_TTL_SECONDS} s)`);
    console.log(`\nload average at the end ${loadAverage()}`);
  } finally {
    await log.close();
    await cluster.stop();
    await postgres.stop();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
