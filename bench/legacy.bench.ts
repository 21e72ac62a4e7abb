/**
 * `npm run bench:legacy`: a page of `GET /bots/bots_with_metadata` over 100 000 bots of one team, with a
 * case-insensitive partial match and an `extra` sort, against a plain unfiltered page of the same read
 * store in the same run. Pages follow their `next_cursor`, as a client reading the list does.
 */
import os from 'node:os';
import { MemoryReadStore } from '../src/adapters/read-store/memory-read-store';
import type { ReadStore } from '../src/adapters/read-store/port';
import type { DomainEvent } from '../src/domain/all-events';
import { defaultBotConfig } from '../src/domain/bot/bot-config';
import type { BotsWithMetadataQuery } from '../src/http/codecs/bots-with-metadata-query';
import { botsWithMetadataPage } from '../src/http/legacy/bots-with-metadata';
import { applyEventToProjections, ensureProjectionIndexes } from '../src/projections/apply-event';
import { legacyBotViewProjection } from '../src/projections/legacy-bot-view';

const BOTS = Number(process.env.BENCH_LEGACY_BOTS ?? 100_000);
const PAGES = Number(process.env.BENCH_LEGACY_PAGES ?? 300);
const TEAM = 'bench-team';

const FIRST = ['Ana', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Fatima', 'Giulia', 'Hiro', 'Ines', 'Jonas', 'Kofi', 'Lena', 'Mateo', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tara'];
const LAST = ['Smith', 'García', 'Müller', 'Okafor', 'Tanaka', 'Rossi', 'Dubois', 'Kowalski', 'Silva', 'Nguyen'];

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();

/** Bot i of the team, as the log would hold it: created, dispatched, and for most an end with speakers. */
const historyOf = (i: number): DomainEvent[] => {
  const bot_id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[(i * 7) % LAST.length]!;
  // Most bots carry a deal, a few do not: the sort puts those last.
  const extra: Record<string, unknown> = { customer: `customer-${i % 500}`, region: i % 3 === 0 ? 'eu' : 'us' };
  if (i % 10 !== 0) extra.deal = `D-${(i * 7919) % 100_000}`;
  const events: DomainEvent[] = [
    {
      type: 'BotCreated',
      data: {
        bot_id, team_id: TEAM, meeting_url: `https://meet.google.com/abc-defg-${String(i % 1000).padStart(3, '0')}`, platform: 'mt',
        bot_name: `${first} ${last} Notetaker`, extra, config: { ...defaultBotConfig(), api: 'legacy' }, created_by: null, created_at: at(i),
      },
    },
  ];
  if (i % 4 !== 0) {
    events.push({ type: 'ParticipantsReported', data: { bot_id, participants: [first, 'Guest'], speakers: [first], at: at(i + 30) } });
    events.push({ type: 'BotCompleted', data: { bot_id, end_reason: 'BOT_REMOVED', usage: { recorded_seconds: 1800 + (i % 600), waiting_room_seconds: 0 }, at: at(i + 31) } });
  }
  return events;
};

/** As the service does it: the projection's indexes declared first, then the log applied in order. */
const fill = async (store: ReadStore): Promise<number> => {
  await ensureProjectionIndexes(store, [legacyBotViewProjection]);
  let position = 0n;
  for (let i = 0; i < BOTS; i++) {
    for (const event of historyOf(i)) await applyEventToProjections(store, [legacyBotViewProjection], event, ++position);
  }
  return Number(position);
};

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface Timing {
  /** the first page of the run: for an order no query used before, it sorts the team's bots once */
  readonly first: number;
  readonly firstCpu: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU time of this process per page (user + system), median: what the page costs without other load */
  readonly cpuP50: number;
}

/**
 * Reads `PAGES` pages of a query, following next_cursor and starting over at its end, timing each page;
 * the first page is reported on its own, the percentiles are of the pages after it.
 */
const timePages = async (store: ReadStore, query: Omit<BotsWithMetadataQuery, 'cursor'>): Promise<Timing> => {
  const times: number[] = [];
  const cpu: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < PAGES; page++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const result = await botsWithMetadataPage(store, TEAM, cursor === null ? query : { ...query, cursor }, new Date().toISOString());
    const used = process.cpuUsage(cpuStarted);
    times.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
    cursor = result.next_cursor;
  }
  const [first] = times.splice(0, 1);
  const [firstCpu] = cpu.splice(0, 1);
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { first: first!, firstCpu: firstCpu!, p50: percentile(times, 50), p99: percentile(times, 99), cpuP50: percentile(cpu, 50) };
};

const main = async () => {
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
  const store = new MemoryReadStore();
  const filling = performance.now();
  const events = await fill(store);
  console.log(`${BOTS} bots (${events} events) projected into the memory read store in ${((performance.now() - filling) / 1000).toFixed(1)} s\n`);

  const plain = { filter_by_extra: [], sort_by_extra: null, limit: 10 };
  const cases: [string, Omit<BotsWithMetadataQuery, 'cursor'>][] = [
    ['bot_name=smith, sort_by_extra=deal:desc', { ...plain, bot_name: 'smith', sort_by_extra: { field: 'deal', direction: 'desc' } }],
    ['bot_name=note (all match), sort_by_extra=deal', { ...plain, bot_name: 'note', sort_by_extra: { field: 'deal', direction: 'asc' } }],
    ['speaker_name=ana, filter_by_extra=region:eu', { ...plain, speaker_name: 'ana', filter_by_extra: [{ field: 'region', value: 'eu' }] }],
  ];
  const cold = await timePages(store, plain);
  const baseline = await timePages(store, plain);
  const line = (name: string, t: Timing) =>
    `${name.padEnd(46)} first ${t.first.toFixed(0).padStart(5)} ms (cpu ${t.firstCpu.toFixed(0).padStart(4)} ms)   p50 ${t.p50.toFixed(2).padStart(6)} ms   p99 ${t.p99.toFixed(2).padStart(6)} ms   cpu p50 ${t.cpuP50.toFixed(2).padStart(6)} ms`;
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`${PAGES} pages of 10 per query, each following the previous page's next_cursor`);
  console.log(line('plain page, first run (cold)', cold));
  console.log(line('baseline: plain page (newest first)', baseline));
  for (const [name, query] of cases) {
    const timing = await timePages(store, query);
    console.log(`${line(name, timing)}   ratio p50 x${(timing.p50 / baseline.p50).toFixed(2)}, p99 x${(timing.p99 / baseline.p99).toFixed(2)}`);
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
