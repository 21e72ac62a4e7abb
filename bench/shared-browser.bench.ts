/**
 * `npm run bench:browsers`: one Chromium per bot (how the service runs bots; the baseline) against all bots
 * in one Chromium, each in a browser context of its own. N audio-only bots (BENCH_BOTS, default 6) record
 * the speech of N mt meetings of the local sandbox for BENCH_WINDOW_SECONDS (default 20) in each layout, one
 * layout after the other; measured: the CPU time and the PSS of the browsers' processes per bot (Chromium's
 * and the display and sound server each browser starts: one set per browser).
 *
 * The bots run in this process (runBot, as the in-process tests run them), so the figures are the
 * browsers' only: a bot's own Node process costs the same in both layouts. Nothing here asserts a figure.
 */
import os from 'node:os';
import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../bot-runtime/browser/launch-browser';
import { pinArgs } from '../bot-runtime/browser/sandbox-trust';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { endBots, startBot, type StartedBot } from '../test/bot-runtime/support';
import { chromiumVersion, intFromEnv, loadAverage, machineLine, mb, range, sleep, type Meeting, openMeeting } from './lib/bot-bench-kit';
import { CLOCK_TICKS_PER_SECOND, processTable, processTree, sumPssKb, type ProcessEntry } from './lib/proc-stats';
import { isBrowserKind, processKind } from './lib/process-kinds';

const BOTS = intFromEnv('BENCH_BOTS', 6);
const WINDOW_SECONDS = intFromEnv('BENCH_WINDOW_SECONDS', 20);
/** the run options of a bot started by the service (run-bot.ts defaults) */
const SERVICE_OPTIONS = { tickMs: 500, screenshotSeconds: 5, chunkSeconds: 10, joinTimeoutSeconds: 60 };

type Layout = 'one browser per bot' | 'one browser, a context per bot';

interface LayoutResult {
  readonly layout: Layout;
  readonly loadAtStart: string;
  /** the browsers' processes (Chromium's and their helpers), all bots together, in cores */
  readonly cpuCores: number;
  readonly pssKb: number;
  readonly processes: number;
  /** CPU share per kind of process (browser, renderer, gpu, utility …), in cores */
  readonly byKind: ReadonlyMap<string, number>;
  readonly ends: readonly string[];
}

/** Every process of this bench's browsers: Chromium's and their helpers (its bots' browsers are its children; the sandbox starts none). */
const browserProcesses = async (): Promise<ProcessEntry[]> => {
  const below = processTree(process.pid, await processTable()).filter((p) => p.pid !== process.pid);
  const kinds = await Promise.all(below.map((p) => processKind(p.pid)));
  return below.filter((_, i) => isBrowserKind(kinds[i]!));
};

const speakUntil = async (sandbox: RunningSandbox, meeting: Meeting, until: () => boolean) => {
  while (!until()) {
    await sandbox.client.speak(meeting.meetingId, meeting.speakerId, 'The quarterly numbers are ready for review');
    await sleep(1500);
  }
};

const runLayout = async (sandbox: RunningSandbox, layout: Layout): Promise<LayoutResult> => {
  const loadAtStart = loadAverage();
  const shared: Browser | null = layout === 'one browser per bot' ? null : await launchBrowser({ args: pinArgs([sandbox.spkiSha256]) });
  const meetings = await Promise.all(range(BOTS).map(() => openMeeting(sandbox)));
  const bots: StartedBot[] = meetings.map((m) =>
    startBot(m.url, 'mt', { recording_mode: 'audio_only' }, { ...(shared ? { browser: shared } : {}), options: SERVICE_OPTIONS }),
  );
  try {
    await Promise.all(bots.map((b) => b.reporter.waitForStatus('in_call_recording', 180_000)));
    let over = false;
    const speech = Promise.all(meetings.map((m) => speakUntil(sandbox, m, () => over)));
    await sleep(2000);
    const before = await browserProcesses();
    await sleep(WINDOW_SECONDS * 1000);
    const after = await browserProcesses();
    over = true;
    await speech;
    const byKind = new Map<string, number>();
    let ticks = 0;
    for (const p of after) {
      const used = p.cpuTicks - (before.find((b) => b.pid === p.pid && b.name === p.name)?.cpuTicks ?? 0);
      ticks += used;
      const kind = await processKind(p.pid);
      byKind.set(kind, (byKind.get(kind) ?? 0) + used / CLOCK_TICKS_PER_SECOND / WINDOW_SECONDS);
    }
    const pss = await sumPssKb(after.map((p) => p.pid));
    await Promise.all(bots.map((b) => b.control.send({ kind: 'leave' }).catch(() => undefined)));
    const ends = await Promise.all(bots.map(async (b) => ((end) => `${end.outcome} ${end.error_code}`)(await b.done)));
    return { layout, loadAtStart, cpuCores: ticks / CLOCK_TICKS_PER_SECOND / WINDOW_SECONDS, pssKb: pss, processes: after.length, byKind, ends };
  } finally {
    await endBots(bots);
    await shared?.close();
    await Promise.all(meetings.map((m) => sandbox.client.end(m.meetingId)));
  }
};

const print = (r: LayoutResult, baseline: LayoutResult | null) => {
  const perBot = (v: number) => v / BOTS;
  const vs = (a: number, b: number) => (baseline ? ` (x${(a / b).toFixed(2)})` : '');
  console.log(`\n${r.layout}${baseline ? '' : ' (baseline)'}: ${BOTS} bots recording, load average ${r.loadAtStart} at the start`);
  console.log(`   Chromium's CPU per bot ${(100 * perBot(r.cpuCores)).toFixed(1)} % of a core${vs(r.cpuCores, baseline?.cpuCores ?? 1)}; PSS per bot ${mb(perBot(r.pssKb))}${vs(r.pssKb, baseline?.pssKb ?? 1)}; ${r.processes} processes`);
  console.log(`   by kind (per bot): ${[...r.byKind.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(100 * perBot(v)).toFixed(1)} %`).join(', ')}`);
  const wrong = r.ends.filter((e) => e !== 'completed API_REQUEST');
  console.log(`   ends: ${wrong.length === 0 ? `all ${r.ends.length} completed API_REQUEST` : r.ends.join(', ')}`);
};

const main = async () => {
  console.log(machineLine(chromiumVersion()));
  console.log(`${BOTS} audio-only bots in ${BOTS} mt meetings, speech in every meeting, a window of ${WINDOW_SECONDS} s; the bots run in this process (their browsers' processes only are measured: Chromium's, Xvfb, PulseAudio)`);
  const sandbox = await startSandbox({ port: 0 });
  try {
    await (async () => {
      const m = await openMeeting(sandbox);
      await sandbox.client.speak(m.meetingId, m.speakerId, 'The quarterly numbers are ready for review'); // made once, then cached
      await sandbox.client.end(m.meetingId);
    })();
    const separate = await runLayout(sandbox, 'one browser per bot');
    print(separate, null);
    const shared = await runLayout(sandbox, 'one browser, a context per bot');
    print(shared, separate);
    console.log('\n--- summary for docs/performance.md ---');
    console.log(
      `- ${BOTS} bots, Chromium per bot: one browser each ${(100 * (separate.cpuCores / BOTS)).toFixed(1)} % of a core, ${mb(separate.pssKb / BOTS)};` +
        ` one shared browser ${(100 * (shared.cpuCores / BOTS)).toFixed(1)} % (x${(shared.cpuCores / separate.cpuCores).toFixed(2)}), ${mb(shared.pssKb / BOTS)} (x${(shared.pssKb / separate.pssKb).toFixed(2)})` +
        ` (load average ${separate.loadAtStart} and ${shared.loadAtStart}; ${os.cpus().length} cores)`,
    );
  } finally {
    await sandbox.stop();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
