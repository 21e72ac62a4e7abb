/**
 * `npm run bench`: the API's throughput and the projection rebuild, each against a baseline measured in
 * the same run on the same machine. The ratios are the figures; absolute numbers vary with the machine.
 */
import { randomUUID } from 'node:crypto';
import { defaultBotConfig } from '../src/domain/bot/bot-config';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import Koa from 'koa';
import { SqliteEventStore } from '../src/adapters/event-store/sqlite-event-store';
import { MemoryReadStore } from '../src/adapters/read-store/memory-read-store';
import type { ReadStore } from '../src/adapters/read-store/port';
import { SqliteReadStore } from '../src/adapters/read-store/sqlite-read-store';
import { createBot } from '../src/commands/create-bot';
import { createTeamWithKey } from '../src/commands/team-commands';
import { allProjections } from '../src/capabilities';
import { rebuildProjections } from '../src/subscribers/rebuild-projections';
import { startService } from '../src/service';
import { runLoad, type LoadResult } from './lib/load';
import { BENCH_ADMIN_TOKEN, benchServiceConfig } from './lib/bench-service-config';

const CONCURRENCY = 16;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const REBUILD_BOTS = Number(process.env.BENCH_REBUILD_BOTS ?? 5000);
const ADMIN = BENCH_ADMIN_TOKEN;

const quietLog = bunyan.createLogger({ name: 'bench', level: 'fatal' });

const bareKoa = async (): Promise<{ url: string; close: () => void }> => {
  const app = new Koa();
  app.use(async (ctx) => {
    // Reads the body like the real endpoint must, then answers a small JSON document.
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    ctx.status = 201;
    ctx.body = { success: true, data: { bot_id: randomUUID() } };
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/bots`, close: () => server.close() };
};

const botBody = () => JSON.stringify({ meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Bench', extra: { n: 1 } });

const line = (name: string, r: LoadResult) =>
  `${name.padEnd(22)} ${r.perSecond.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2).padStart(7)} ms   p99 ${r.p99Ms.toFixed(2).padStart(7)} ms   statuses ${JSON.stringify(r.statuses)}`;

const benchApi = async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-'));
  const bare = await bareKoa();
  const service = await startService(
    benchServiceConfig(dataDir),
    { log: quietLog },
  );
  try {
    const team = await (
      await fetch(`${service.url}/admin/teams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', tokens: 1_000_000, daily_bot_cap: 1_000_000, rate_limit_per_second: 100_000 }),
      })
    ).json();
    const headers = { 'content-type': 'application/json', 'x-service-api-key': team.data.api_key };
    const load = (url: string) => runLoad({ url, method: 'POST', headers, body: botBody, total: REQUESTS, concurrency: CONCURRENCY });
    await load(bare.url); // warm-up of both, so neither pays for JIT alone
    await load(`${service.url}/v2/bots`);
    const baseline = await load(bare.url);
    const api = await load(`${service.url}/v2/bots`);
    console.log(`POST /v2/bots, ${REQUESTS} requests, concurrency ${CONCURRENCY}, one team (the embedded default: SQLite event store and read store)`);
    console.log(line('bare koa JSON endpoint', baseline));
    console.log(line('POST /v2/bots', api));
    console.log(`ratio: throughput ${(api.perSecond / baseline.perSecond).toFixed(3)} of bare koa; p50 latency x${(api.p50Ms / baseline.p50Ms).toFixed(1)}, p99 x${(api.p99Ms / baseline.p99Ms).toFixed(1)}`);
  } finally {
    bare.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const benchRebuild = async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-'));
  const eventStore = new SqliteEventStore(path.join(dataDir, 'events.sqlite3'));
  try {
    const deps = { eventStore, clock: () => new Date(), newId: () => randomUUID() };
    const team = await createTeamWithKey(deps, { name: 'bench', initial_tokens: 1e12, daily_bot_cap: 1e9, rate_limit_per_second: 1e6 });
    if (team._tag === 'Left') throw new Error(team.left.message);
    for (let i = 0; i < REBUILD_BOTS; i++) {
      await createBot(deps, {
        team_id: team.right.team_id,
        meeting_url: `https://meet.google.com/abc-defg-${String(i % 1000).padStart(3, '0')}`,
        platform: 'mt',
        bot_name: `Bot ${i}`,
        extra: null,
        config: defaultBotConfig(),
        created_by: null,
      });
    }
    const rawStarted = performance.now();
    let raw = 0;
    let from: bigint | undefined;
    for (;;) {
      const batch = await eventStore.readAll({ ...(from === undefined ? {} : { fromPosition: from }), maxCount: 1000 });
      raw += batch.length;
      if (batch.length < 1000) break;
      from = batch[batch.length - 1]!.position;
    }
    const rawSeconds = (performance.now() - rawStarted) / 1000;
    console.log(`\nprojection rebuild over ${raw} events (${REBUILD_BOTS} bots) from the SQLite log`);
    console.log(`raw read of the log              ${(raw / rawSeconds).toFixed(0).padStart(9)} events/s  (${(rawSeconds * 1000).toFixed(0)} ms)`);
    const sqliteReadStore = new SqliteReadStore(path.join(dataDir, 'read-models.sqlite3'));
    const stores: Array<[string, ReadStore]> = [['into the memory read store', new MemoryReadStore()], ['into the SQLite read store', sqliteReadStore]];
    for (const [name, readStore] of stores) {
      const report = await rebuildProjections(eventStore, readStore, allProjections);
      const rebuildSeconds = report.milliseconds / 1000;
      console.log(`rebuild ${name.padEnd(26)}${(report.events_read / rebuildSeconds).toFixed(0).padStart(9)} events/s  (${report.milliseconds} ms, ${report.events_applied} applied): ${((report.events_read / rebuildSeconds) / (raw / rawSeconds)).toFixed(3)} of the raw read`);
    }
    await sqliteReadStore.close();
  } finally {
    await eventStore.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const main = async () => {
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}\n`);
  await benchApi();
  await benchRebuild();
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
