/**
 * `npm run bench:burst`: bots that all arrive at once, as calendar bots do at the top of the hour, through
 * the public API of the whole service (real bot processes and Chromium, meetings of the local sandbox):
 *
 *   0. the baseline: one bot alone, POST /v2/bots -> in_call_recording (from the warm pool, BENCH_POOL, default 2,
 *      the service's default, as the first bots of a burst are);
 *   1. a burst of as many bots as the service has slots (BENCH_SLOTS, default 12), each in its own mt
 *      meeting without lobby, POSTed at once: every one must join and record (none may fail because
 *      others started at the same moment); the slowest join is the figure (goal: within 20 s);
 *   2. a burst of BENCH_EXTRA (default 4) bots more than the slots: the extra bots wait in the queue
 *      (status `queued`) while the slots are taken, and join once the first bots leave; none may fail.
 * Every bot records BENCH_RECORD_SECONDS (default 8) before it is asked to leave, and must end
 * `completed` with a recording. Nothing here asserts a time: the figures are printed with the load
 * average, and the burst's slowest join against the lone bot's of the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '../sandbox/server';
import { apiClient, createTeam } from '../test/support/http-client';
import bunyan from 'bunyan';
import { childProcessLauncherFor, type ChildProcessLauncher } from '../src/adapters/bot-launcher/child-process-launcher';
import { startTestService } from '../test/support/test-service';
import {
  botDetails,
  chromiumVersion,
  describeBot,
  hasEnded,
  intFromEnv,
  loadAverage,
  machineLine,
  messageOf,
  openMeeting,
  percentile,
  postBot,
  range,
  seconds,
  sleep,
  statusTimeMs,
  waitForEnd,
  waitUntilNoBotRuns,
  type Bench,
  type BotDetails,
} from './lib/bot-bench-kit';
import { busyPercent, cpuTimes } from './lib/proc-stats';

const SLOTS = intFromEnv('BENCH_SLOTS', 12);
/** the service's default pool */
const POOL = intFromEnv('BENCH_POOL', 2);
const EXTRA = intFromEnv('BENCH_EXTRA', 4);
const RECORD_SECONDS = intFromEnv('BENCH_RECORD_SECONDS', 8);
const WAIT_MS = 240_000;

interface Joined {
  readonly botId: string;
  /** POST sent -> in_call_recording first seen by this bench's poll (250 ms) */
  readonly wallSeconds: number | null;
  /** the bot's own history: queued -> in_call_recording */
  readonly ownSeconds: number | null;
  /** queued -> joining_call: waiting for a slot, dispatch and the process's start */
  readonly toJoining: number | null;
  /** the bench saw it `queued` while other bots held every slot */
  readonly sawQueued: boolean;
  readonly failure: string | null;
}

/** Polls one bot until it records or ends; notes whether it was ever seen queued. */
const watchJoin = async (bench: Bench, botId: string, postedAt: number): Promise<Joined> => {
  const deadline = Date.now() + WAIT_MS;
  let sawQueued = false;
  for (;;) {
    const bot = await botDetails(bench.api, botId);
    // still queued and not started: waiting for a slot (a started bot says queued until it reports joining_call)
    if (bot.status === 'queued' && !bench.t.service.dispatcher.isRunningHere(botId) && bench.t.service.dispatcher.runningCount >= SLOTS) sawQueued = true;
    const recording = bot.status_history.some((s) => s.status === 'in_call_recording');
    if (recording) {
      const at = (status: string) => statusTimeMs(bot, status) / 1000;
      return {
        botId,
        wallSeconds: (performance.now() - postedAt) / 1000,
        ownSeconds: at('in_call_recording') - at('queued'),
        toJoining: at('joining_call') - at('queued'),
        sawQueued,
        failure: null,
      };
    }
    if (hasEnded(bot) || Date.now() > deadline) {
      return { botId, wallSeconds: null, ownSeconds: null, toJoining: null, sawQueued, failure: hasEnded(bot) ? describeBot(bot) : `not recording after ${WAIT_MS / 1000} s: ${describeBot(bot)}` };
    }
    await sleep(250);
  }
};

/** Leaves the bots, waits until each has ended and every process exited; what is wrong with each end. */
const leaveAndCheck = async (bench: Bench, botIds: readonly string[]): Promise<string[]> => {
  await Promise.all(botIds.map((id) => bench.api.post(`/v2/bots/${id}/leave`)));
  const ends = await Promise.allSettled(botIds.map((id) => waitForEnd(bench.api, id)));
  const problems = ends.flatMap((e, i): string[] => {
    if (e.status === 'rejected') return [`bot ${i + 1}: ${messageOf(e.reason)}`];
    const bot: BotDetails = e.value;
    const reasons: string[] = [];
    if (bot.status !== 'completed' || bot.error_code !== 'API_REQUEST') reasons.push(`ended ${describeBot(bot)}`);
    if (!bot.artifacts.some((a) => a.artifact_type === 'recording')) reasons.push('no recording');
    return reasons.length ? [`bot ${i + 1}: ${reasons.join('; ')}`] : [];
  });
  return problems;
};

const summary = (label: string, values: readonly number[]) =>
  values.length === 0 ? `${label}: none` : `${label}: p50 ${seconds(percentile(values, 50))}, p95 ${seconds(percentile(values, 95))}, max ${seconds(Math.max(...values))}`;

interface BurstResult {
  readonly joined: readonly Joined[];
  readonly problems: readonly string[];
  readonly cpuBusyPercent: number;
  readonly loadAtStart: string;
}

/** `n` bots POSTed at once into `n` meetings; each is left RECORD_SECONDS after it records, which frees its slot for a queued one. */
const burst = async (bench: Bench, launcher: ChildProcessLauncher, n: number): Promise<BurstResult> => {
  // as between bursts in a service: the pool has refilled
  const deadline = Date.now() + 60_000;
  while (launcher.warmReadyCount < POOL && Date.now() < deadline) await sleep(100);
  const loadAtStart = loadAverage();
  const meetings = await Promise.all(range(n).map(() => openMeeting(bench.sandbox)));
  const cpuFrom = cpuTimes();
  const posted = await Promise.all(meetings.map((m) => postBot(bench.api, m)));
  const problems: string[] = [];
  // each bot leaves RECORD_SECONDS after it started recording, so queued bots get its slot
  const joined = await Promise.all(
    posted.map(async (p) => {
      const j = await watchJoin(bench, p.botId, p.postedAt);
      if (j.failure === null) await sleep(RECORD_SECONDS * 1000);
      await bench.api.post(`/v2/bots/${p.botId}/leave`);
      return j;
    }),
  );
  const cpuBusyPercent = busyPercent(cpuFrom, cpuTimes());
  problems.push(...(await leaveAndCheck(bench, posted.map((p) => p.botId))));
  await waitUntilNoBotRuns(bench);
  await Promise.all(meetings.map((m) => bench.sandbox.client.end(m.meetingId)));
  return { joined, problems, cpuBusyPercent, loadAtStart };
};

const printBurst = (title: string, result: BurstResult, baselineSeconds: number | null) => {
  const ok = result.joined.filter((j) => j.failure === null);
  console.log(`\n${title} (load average ${result.loadAtStart} at the start; machine CPU busy ${result.cpuBusyPercent.toFixed(0)} % during the burst)`);
  console.log(`   ${ok.length} of ${result.joined.length} bots recorded; ${result.joined.filter((j) => j.sawQueued).length} were seen queued while the slots were taken`);
  console.log(`   ${summary('POST -> in_call_recording (wall clock, 250 ms poll)', ok.map((j) => j.wallSeconds!))}`);
  console.log(`   ${summary("bot's own history, queued -> in_call_recording", ok.map((j) => j.ownSeconds!))}`);
  console.log(`   ${summary('of which queued -> joining_call (queue, dispatch, process start)', ok.map((j) => j.toJoining!))}`);
  const slowest = Math.max(...ok.map((j) => j.wallSeconds!));
  if (baselineSeconds !== null && ok.length > 0) console.log(`   slowest / lone bot: x${(slowest / baselineSeconds).toFixed(2)}`);
  result.joined.filter((j) => j.failure !== null).forEach((j) => console.log(`   failed to record: ${j.failure}`));
  result.problems.forEach((p) => console.log(`   ${p}`));
};

const main = async () => {
  const chromium = chromiumVersion();
  console.log(machineLine(chromium));
  const sandbox = await startSandbox({ port: 0 });
  // SANDBOX_REPLICAS as well: the pool's browsers then start with the routing and pin the sandbox's meetings need
  const sandboxReplicas = `127.0.0.1:${sandbox.port}`;
  const launcher = childProcessLauncherFor(bunyan.createLogger({ name: 'bench', level: 'fatal' }), { sandboxReplicas, botPoolSize: POOL }, SLOTS);
  const t = await startTestService({
    botSlots: SLOTS,
    overrides: { launcher },
    sandboxHosts: true,
    sandboxReplicas,
    allowPrivateWebhookTargets: false,
    allowPrivateStorageEndpoints: false,
  });
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-burst-'));
  try {
    const team = await createTeam(t.url, { tokens: 100_000, daily_bot_cap: 100_000, rate_limit_per_second: 1000 });
    const bench: Bench = { sandbox, t, api: apiClient(t.url, team.api_key), downloads };
    console.log(`service: BOT_SLOTS=${SLOTS}, BOT_POOL_SIZE=${POOL}; every bot records ${RECORD_SECONDS} s, then leaves`);
    const alone = await burst(bench, launcher, 1);
    printBurst('0. baseline: one bot alone', alone, null);
    const baseline = alone.joined[0]?.wallSeconds ?? null;
    const full = await burst(bench, launcher, SLOTS);
    printBurst(`1. a burst of ${SLOTS} bots (as many as the slots) POSTed at once`, full, baseline);
    const over = EXTRA > 0 ? await burst(bench, launcher, SLOTS + EXTRA) : null;
    if (over) printBurst(`2. a burst of ${SLOTS + EXTRA} bots (${EXTRA} more than the slots) POSTed at once`, over, baseline);
    console.log('\n--- summary for docs/performance.md ---');
    const slowest = (r: BurstResult) => Math.max(...r.joined.filter((j) => j.failure === null).map((j) => j.wallSeconds!));
    console.log(`- lone bot: ${baseline === null ? 'failed' : seconds(baseline)} POST -> in_call_recording (load average ${alone.loadAtStart})`);
    const line = (r: BurstResult, n: number) =>
      `${r.joined.filter((j) => j.failure === null).length}/${n} recorded, ${r.problems.length} ended wrongly, slowest ${seconds(slowest(r))}` +
      `${baseline ? ` (x${(slowest(r) / baseline).toFixed(2)} the lone bot)` : ''}, ${r.joined.filter((j) => j.sawQueued).length} seen queued (load average ${r.loadAtStart})`;
    console.log(`- burst of ${SLOTS} (= slots): ${line(full, SLOTS)}`);
    if (over) console.log(`- burst of ${SLOTS + EXTRA} (slots + ${EXTRA}): ${line(over, SLOTS + EXTRA)}`);
  } finally {
    await t.stop();
    await sandbox.stop();
    rmSync(downloads, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
