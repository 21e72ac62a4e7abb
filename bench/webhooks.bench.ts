/**
 * `npm run bench:webhooks`: webhook delivery from the event log to a local receiver, against the same
 * receiver hit directly by a bare HTTP client in the same run (the ratio is the figure), and the same
 * again with one of two endpoints down.
 *
 * Events: N bots' final events (BotCreated then BotFailed, appended as the service appends them), so each
 * makes exactly one `bot.failed` message per endpoint. Latency: from the append of the BotFailed event to
 * the message's arrival at the receiver.
 */
import { createApiClient } from '../client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import { defaultBotConfig } from '../src/domain/bot/bot-config';
import { botStreamName } from '../src/domain/bot/bot-events';
import { defaultDeliveryWorkerOptions } from '../src/subscribers/deliver-webhooks';
import { startService, type RunningService } from '../src/service';
import { freePort } from '../test/support/free-port';
import { BENCH_ADMIN_TOKEN, benchServiceConfig } from './lib/bench-service-config';
import { startReceiver, type Receiver } from './lib/receiver';

const MESSAGES = Number(process.env.BENCH_WEBHOOKS ?? 2000);
/** events per second of the paced runs, which measure latency below saturation */
const PACE = Number(process.env.BENCH_WEBHOOKS_PACE ?? 20);
const PACED_MESSAGES = PACE * 10;
const ADMIN = BENCH_ADMIN_TOKEN;
const quietLog = bunyan.createLogger({ name: 'bench', level: 'fatal' });

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Figures {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const figures = (latencies: number[], seconds: number): Figures => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
};

const line = (name: string, f: Figures) =>
  `${name.padEnd(40)} ${f.perSecond.toFixed(0).padStart(6)} msg/s   p50 ${f.p50Ms.toFixed(1).padStart(7)} ms   p99 ${f.p99Ms.toFixed(1).padStart(7)} ms`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * The same bodies posted straight to the receiver, as many at once as the worker sends to one endpoint,
 * one connection each; `pace` (per second) spaces the starts, else as fast as they go.
 */
const bareClient = async (receiver: Receiver, n: number, pace: number | null = null): Promise<Figures> => {
  const target = new URL(receiver.url);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ event: 'bot.failed', data: { bot_id: `bare-${i}`, extra: null, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'x' } });
      const sent = performance.now();
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(receiver.arrivals.get(`bare-${i}`)! - sent);
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: defaultDeliveryWorkerOptions.perTarget }, async () => {
      while (next < n) {
        const i = next++;
        if (pace !== null) await sleep(started + (i * 1000) / pace - performance.now());
        await one(i);
      }
    }),
  );
  return figures(latencies, (performance.now() - started) / 1000);
};

const startBenchService = async (dataDir: string) =>
  startService(
    benchServiceConfig(dataDir, { allowPrivateWebhookTargets: true }),
    { log: quietLog },
  );

const admin = async (service: RunningService, pathName: string, body: unknown) =>
  (await fetch(`${service.url}${pathName}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;

/** Appends N bots' creation and failure as the service does, and measures each message's way to the receiver. */
const deliverThroughService = async (endpoints: string[], live: Receiver, n: number, pace: number | null = null): Promise<Figures> => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-webhooks-'));
  const service = await startBenchService(dataDir);
  try {
    const team = await admin(service, '/admin/teams', { name: 'bench', tokens: 1000 });
    const apiKey = team.data.api_key as string;
    for (const url of endpoints) {
      const { error } = await createApiClient({ baseUrl: service.url, apiKey }).POST('/v2/webhooks', { body: { url, events: ['bot.failed'] } });
      if (error) throw new Error(`endpoint: ${error.code} ${error.message}`);
    }
    const appendedAt = new Map<string, number>();
    const teamId = team.data.team_id as string;
    const now = new Date().toISOString();
    const started = performance.now();
    for (let i = 0; i < n; i += 1) {
      if (pace !== null) await sleep(started + (i * 1000) / pace - performance.now());
      const botId = randomUUID();
      await service.eventStore.appendToStream(
        botStreamName(botId),
        [
          {
            id: randomUUID(),
            type: 'BotCreated',
            data: { bot_id: botId, team_id: teamId, meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'Bench', extra: { n: i }, config: defaultBotConfig(), created_by: null, created_at: now },
          },
          { id: randomUUID(), type: 'BotFailed', data: { bot_id: botId, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'bench', usage: { recorded_seconds: 0, waiting_room_seconds: 0 }, at: now } },
        ],
        'no_stream',
      );
      appendedAt.set(botId, performance.now());
    }
    await live.whenAll(n);
    const last = Math.max(...[...appendedAt.keys()].map((id) => live.arrivals.get(id)!));
    return figures([...appendedAt].map(([id, at]) => live.arrivals.get(id)! - at), (last - started) / 1000);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

/** One scenario through the service: to one endpoint, or to two of which one is down. */
const throughService = async (withDownEndpoint: boolean, n: number, pace: number | null): Promise<Figures> => {
  const live = await startReceiver();
  const down = `http://127.0.0.1:${await freePort()}/hooks`;
  try {
    return await deliverThroughService(withDownEndpoint ? [down, live.url] : [live.url], live, n, pace);
  } finally {
    live.close();
  }
};

const bare = async (n: number, pace: number | null): Promise<Figures> => {
  const receiver = await startReceiver();
  try {
    return await bareClient(receiver, n, pace);
  } finally {
    receiver.close();
  }
};

const main = async () => {
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`the worker sends at most ${defaultDeliveryWorkerOptions.perTarget} at once to one endpoint, and so does the bare client (a new connection each)\n`);
  await bare(200, null); // warm-up of both, so neither pays for JIT alone
  await throughService(false, 200, null);

  const report = (title: string, n: number, pace: number | null, shown: 'throughput' | 'latency') => async () => {
    const baseline = await bare(n, pace);
    const one = await throughService(false, n, pace);
    const withDown = await throughService(true, n, pace);
    console.log(title);
    console.log(line('baseline: bare HTTP client to the receiver', baseline));
    console.log(line('service: one endpoint', one));
    console.log(line('service: two endpoints, one down (live one)', withDown));
    const ratio = (f: Figures) =>
      shown === 'throughput'
        ? `throughput ${(f.perSecond / baseline.perSecond).toFixed(3)} of the bare client`
        : `p50 x${(f.p50Ms / baseline.p50Ms).toFixed(1)}, p99 x${(f.p99Ms / baseline.p99Ms).toFixed(1)} of the bare client (${f.p50Ms.toFixed(1)} / ${f.p99Ms.toFixed(1)} ms)`;
    console.log(`ratio, one endpoint:              ${ratio(one)}`);
    console.log(`ratio, one of two endpoints down: ${ratio(withDown)}\n`);
  };
  await report(`burst: ${MESSAGES} final events appended as fast as they go (throughput; latency there is queueing)`, MESSAGES, null, 'throughput')();
  await report(`paced: ${PACED_MESSAGES} final events at ${PACE}/s (latency from the append to the arrival)`, PACED_MESSAGES, PACE, 'latency')();
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
