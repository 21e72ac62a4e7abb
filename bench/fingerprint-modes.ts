/**
 * Part of `npm run bench:bots` (issue 22): the browser a meeting page sees, in each mode the bot can run
 * Chromium in, in the same run: headful on a virtual display of its own (the bot's default) and the new
 * headless mode, both with the same switches, sound server and page machinery (bot-runtime/browser/).
 *
 *   - what the sandbox's fingerprint page (sandbox/fingerprint/) finds in each mode: the checks that trip;
 *   - the cost of a recording bot in each mode: CPU (share of a core) and memory (PSS) of its browser's
 *     processes and its helpers (Xvfb, PulseAudio and its listener), over a window while it records a
 *     Meet replica meeting where a participant speaks; audio-only and video (speaker view).
 *
 * The bot's node side runs in this process (`runBot`, in-process, the browser passed in) and costs the
 * same in both modes, so it is left out. Modes alternate, the order swapped every round, and the load
 * average is printed at the start and the end: the machine may be shared. Sizes: BENCH_FINGERPRINT_BOTS
 * (2 bots per mode and recording mode; 0 skips the part), BENCH_FINGERPRINT_WINDOW_S (20 s).
 */
import os from 'node:os';
import type { Browser } from 'puppeteer-core';
import { BotLog } from '../bot-runtime/bot-log';
import { BROWSER_MODES, DEFAULT_BROWSER_MODE, type BrowserMode } from '../bot-runtime/browser/fingerprint/browser-mode';
import { launchBrowser } from '../bot-runtime/browser/launch-browser';
import type { RecordingMode } from '../contract/bot-contract';
import { replicaHosts } from '../bot-runtime/drivers/families';
import { browserArgsFor } from '../bot-runtime/run/browser-args';
import type { FingerprintReport } from '../sandbox/fingerprint/reports';
import type { RunningSandbox } from '../sandbox/server';
import { endBots, startBot, type StartedBot } from '../test/bot-runtime/support';
import { CLOCK_TICKS_PER_SECOND, processTable, processTree, sumPssKb, type ProcessEntry } from './lib/proc-stats';

const intFromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${process.env[name]}`);
  return value;
};

const BOTS = intFromEnv('BENCH_FINGERPRINT_BOTS', 2);
const WINDOW_MS = intFromEnv('BENCH_FINGERPRINT_WINDOW_S', 20) * 1000;
const SETTLE_MS = 3000;
const RECORDING_MODES: readonly RecordingMode[] = ['audio_only', 'speaker_view'];
/** the helpers a launched browser starts beside it (bot-runtime/browser/display.ts, audio-server.ts) */
const HELPERS = new Set(['Xvfb', 'pulseaudio', 'parec']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const botLog = new BotLog(null);

/** Chromium launched as a bot launches it for a replica meeting (SANDBOX_REPLICAS), in `mode`. */
const launchFor = async (sandbox: RunningSandbox, mode: BrowserMode): Promise<Browser> => {
  const meeting = { platform: 'mt' as const, url: 'https://meet.google.com/fingerprint', sandbox: false };
  const args = await browserArgsFor(meeting, false, { address: { host: '127.0.0.1', port: sandbox.port }, hosts: replicaHosts() }, botLog);
  return launchBrowser({ mode, args });
};

/** The helpers a browser started (children of this process: one browser is alive at a time here). */
const helperProcesses = (table: readonly ProcessEntry[]): ProcessEntry[] =>
  table.filter((p) => p.ppid === process.pid && HELPERS.has(p.name)).flatMap((h) => processTree(h.pid, table));

/** The browser's processes and its helpers. */
const browserProcesses = async (browser: Browser): Promise<ProcessEntry[]> => {
  const table = await processTable();
  return [...processTree(browser.process()!.pid!, table), ...helperProcesses(table)];
};

const ticksOf = (processes: readonly ProcessEntry[], table: readonly ProcessEntry[]) =>
  processes.reduce((sum, p) => sum + (table.find((q) => q.pid === p.pid && q.name === p.name)?.cpuTicks ?? p.cpuTicks), 0);

interface Cost {
  readonly cores: number;
  readonly pssKb: number;
  /** of which the helpers (display, sound server) */
  readonly helpersPssKb: number;
}

/** One bot recording a Meet replica meeting where a participant speaks, its browser in `mode`: its cost over the window. */
const oneBot = async (sandbox: RunningSandbox, mode: BrowserMode, recording: RecordingMode): Promise<Cost> => {
  const meeting = await sandbox.client.createMeeting({ platform: 'mt', replica: 'meet', lobby: false });
  const speaker = await sandbox.client.addSimulated(meeting.meeting_id, 'Speaker');
  const browser = await launchFor(sandbox, mode);
  const bots: StartedBot[] = [];
  let talking = true;
  try {
    // the bot runs in the browser launched here, in the mode measured
    const bot = startBot(
      meeting.url,
      'mt',
      { trust_sandbox_certificate: false, recording_mode: recording },
      { browser, sandboxReplicas: { host: '127.0.0.1', port: sandbox.port }, options: { tickMs: 500, screenshotSeconds: 0, chunkSeconds: 10 } },
    );
    bots.push(bot);
    await bot.reporter.waitForStatus('in_call_recording', 120_000);
    const talk = (async () => {
      while (talking) await sandbox.client.speak(meeting.meeting_id, speaker.participant_id, 'The quarterly numbers are ready for review').catch(() => sleep(1000));
    })();
    await sleep(SETTLE_MS);
    const processes = await browserProcesses(browser);
    const start = ticksOf(processes, await processTable());
    const startedAt = Date.now();
    await sleep(WINDOW_MS);
    const end = ticksOf(processes, await processTable());
    const seconds = (Date.now() - startedAt) / 1000;
    const pssKb = await sumPssKb((await browserProcesses(browser)).map((p) => p.pid));
    const helpersPssKb = await sumPssKb(helperProcesses(await processTable()).map((p) => p.pid));
    talking = false;
    await talk;
    return { cores: (end - start) / CLOCK_TICKS_PER_SECOND / seconds, pssKb, helpersPssKb };
  } finally {
    talking = false;
    await endBots(bots);
    await browser.close();
    await sandbox.client.end(meeting.meeting_id).catch(() => undefined);
  }
};

/** The fingerprint page in `mode`: the checks that trip (none expected in the bot's own mode). */
const trippedIn = async (sandbox: RunningSandbox, mode: BrowserMode): Promise<string[]> => {
  const browser = await launchFor(sandbox, mode);
  try {
    const before = (await reports(sandbox)).filter((r) => r.final).length;
    const page = await browser.newPage();
    await page.bringToFront();
    await page.goto('https://meet.google.com/fingerprint', { waitUntil: 'load' });
    await page.waitForSelector('body[data-probe=reported]', { timeout: 30_000 });
    await (await page.$('[data-testid=fingerprint-join]'))!.click();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const report = (await reports(sandbox)).filter((r) => r.final)[before];
      if (report) return report.tripped;
      if (Date.now() > deadline) throw new Error(`no fingerprint report in ${mode}`);
      await sleep(100);
    }
  } finally {
    await browser.close();
  }
};

const reports = async (sandbox: RunningSandbox) =>
  (await sandbox.client.request<{ reports: FingerprintReport[] }>('GET', '/control/fingerprints?host=meet.google.com')).reports;

export const benchFingerprintModes = async (sandbox: RunningSandbox): Promise<void> => {
  if (BOTS === 0) return;
  console.log(`\n4. The browser a page sees: headful (own Xvfb) vs new headless, same switches; load average ${load()} at the start`);
  for (const mode of BROWSER_MODES) {
    const tripped = await trippedIn(sandbox, mode);
    console.log(`   fingerprint checks tripped in ${mode}: ${tripped.length ? tripped.join(', ') : 'none'}`);
  }
  const costs: Record<string, Cost[]> = {};
  for (const recording of RECORDING_MODES) {
    for (let round = 0; round < BOTS; round++) {
      const order = round % 2 === 0 ? BROWSER_MODES : [...BROWSER_MODES].reverse();
      for (const mode of order) {
        const key = `${mode} ${recording}`;
        try {
          (costs[key] ??= []).push(await oneBot(sandbox, mode, recording));
        } catch (err) {
          console.log(`   ${key}: a bot failed: ${(err as Error).message}`);
        }
      }
    }
  }
  console.log(`   cost of one recording bot's browser and helpers (median of ${BOTS}, ${WINDOW_MS / 1000} s windows on the Meet replica, a participant speaking):`);
  for (const recording of RECORDING_MODES) {
    for (const mode of BROWSER_MODES) {
      const samples = costs[`${mode} ${recording}`] ?? [];
      if (!samples.length) continue;
      const cores = median(samples.map((s) => s.cores));
      const pss = median(samples.map((s) => s.pssKb));
      const helpers = median(samples.map((s) => s.helpersPssKb));
      console.log(
        `     ${recording.padEnd(12)} ${mode.padEnd(8)}  CPU ${(100 * cores).toFixed(0)} % of a core   PSS ${mb(pss)} (helpers ${mb(helpers)})   each: ${samples.map((s) => `${(100 * s.cores).toFixed(0)} %, ${mb(s.pssKb)}`).join('; ')}`,
      );
    }
  }
  console.log(`   fingerprint mode chosen: ${DEFAULT_BROWSER_MODE} (docs/decisions.md, "Issue 22: the browser a page sees"); load average ${load()} at the end`);
};

/** On its own: `npx tsx bench/fingerprint-modes.ts` (a sandbox of its own). */
if (require.main === module) {
  void (async () => {
    const { startSandbox } = await import('../sandbox/server');
    const sandbox = await startSandbox({ port: 0 });
    try {
      await benchFingerprintModes(sandbox);
    } finally {
      await sandbox.stop();
    }
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
