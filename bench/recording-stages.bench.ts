/**
 * `npm run bench:recording`: what recording costs inside a bot's browser, stage by stage, on a page playing
 * speech, against the same browser with a blank page (the baseline, in the same run). Each stage adds one
 * part of what the bot's recorder does in the page (bot-runtime/recorder/in-page.ts), with the same options:
 *
 *   blank page (baseline) -> the page plays speech -> + the tab capture (getDisplayMedia of the tab, its
 *   video stopped, audio only) -> + the level meter (AudioContext at 16 kHz, playback latency, an analyser read
 *   every 100 ms) -> + the Opus MediaRecorder (128 kbit/s, 10 s slices): the whole audio-only recording.
 *
 * Every stage gets a browser of its own, launched as a bot launches it (its mode, switches, display and
 * sound server), measured over BENCH_WINDOW_SECONDS (15) once settled: CPU by kind of process (Chromium's
 * and its helpers') and PSS. Stages alternate for BENCH_ROUNDS rounds (2), medians reported; the load
 * average is printed, the machine may be shared. Nothing here asserts a figure.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { DEFAULT_BROWSER_MODE } from '../bot-runtime/browser/fingerprint/browser-mode';
import { launchBrowser } from '../bot-runtime/browser/launch-browser';
import { chromiumVersion, intFromEnv, loadAverage, machineLine, mb, range, sleep } from './lib/bot-bench-kit';
import { CLOCK_TICKS_PER_SECOND, processTable, processTree, sumPssKb, type ProcessEntry } from './lib/proc-stats';
import { isBrowserKind, processKind } from './lib/process-kinds';

const WINDOW_SECONDS = intFromEnv('BENCH_WINDOW_SECONDS', 15);
const ROUNDS = Math.max(1, intFromEnv('BENCH_ROUNDS', 2));
const SETTLE_MS = 2000;

const STAGES = ['blank page', 'plays speech', '+ tab capture', '+ level meter', '+ Opus recorder'] as const;
type Stage = (typeof STAGES)[number];

interface Sample {
  readonly cpuCores: number;
  readonly byKind: ReadonlyMap<string, number>;
  readonly pssKb: number;
}

/** What the page does at `stage` (each stage does what the previous did, and one more thing). */
const startStage = (browser: Browser, url: string, stage: Stage) =>
  browser.pages().then(async ([page]) => {
    await page!.goto(url);
    await page!.evaluate(async (upTo: number) => {
      if (upTo < 1) return;
      await (document.getElementById('speech') as HTMLAudioElement).play();
      if (upTo < 2) return;
      // as the recorder asks for an audio-only capture (in-page.ts)
      const stream = await navigator.mediaDevices.getDisplayMedia({
        video: { width: 320, height: 240 },
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
        preferCurrentTab: true,
        selfBrowserSurface: 'include',
        systemAudio: 'include',
      } as DisplayMediaStreamOptions);
      for (const t of stream.getVideoTracks()) t.stop();
      const audio = new MediaStream(stream.getAudioTracks());
      const kept = window as unknown as Record<string, unknown>;
      kept.benchStream = stream;
      if (upTo < 3) return;
      const ctx = new AudioContext({ sampleRate: 16000, latencyHint: 'playback' });
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      ctx.createMediaStreamSource(audio).connect(analyser);
      const buf = new Float32Array(analyser.fftSize);
      kept.benchTimer = setInterval(() => analyser.getFloatTimeDomainData(buf), 100);
      await ctx.resume();
      kept.benchContext = ctx;
      if (upTo < 4) return;
      const recorder = new MediaRecorder(audio, { mimeType: 'audio/webm;codecs=opus', audioBitsPerSecond: 128_000 });
      recorder.ondataavailable = () => undefined;
      recorder.start(10_000);
      kept.benchRecorder = recorder;
    }, STAGES.indexOf(stage));
  });

/** The browser's processes: Chromium's and its helpers (this bench's children; one browser at a time). */
const browserProcesses = async (): Promise<ProcessEntry[]> => {
  const below = processTree(process.pid, await processTable()).filter((p) => p.pid !== process.pid);
  const kinds = await Promise.all(below.map((p) => processKind(p.pid)));
  return below.filter((_, i) => isBrowserKind(kinds[i]!));
};

const measure = async (url: string, stage: Stage): Promise<Sample> => {
  const browser = await launchBrowser();
  try {
    await startStage(browser, url, stage);
    await sleep(SETTLE_MS);
    const before = await browserProcesses();
    await sleep(WINDOW_SECONDS * 1000);
    const after = await browserProcesses();
    const byKind = new Map<string, number>();
    let cpuCores = 0;
    for (const p of after) {
      const start = before.find((b) => b.pid === p.pid)?.cpuTicks ?? 0;
      const cores = (p.cpuTicks - start) / CLOCK_TICKS_PER_SECOND / WINDOW_SECONDS;
      const kind = await processKind(p.pid);
      byKind.set(kind, (byKind.get(kind) ?? 0) + cores);
      cpuCores += cores;
    }
    return { cpuCores, byKind, pssKb: await sumPssKb(after.map((p) => p.pid)) };
  } finally {
    await browser.close();
  }
};

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const percent = (cores: number) => `${(100 * cores).toFixed(1)} %`;

/** Speech made once by espeak-ng, played in a loop by the page. */
const speechServer = (): Promise<{ url: string; close: () => void }> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-recording-'));
  const wav = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-w', wav, 'The quarterly numbers are ready for review and the budget meeting moved to Thursday']);
  const speech = readFileSync(wav);
  rmSync(dir, { recursive: true, force: true });
  const server = http.createServer((req, res) => {
    if (req.url === '/speech.wav') res.writeHead(200, { 'content-type': 'audio/wav' }).end(speech);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>meeting</title><audio id="speech" src="/speech.wav" loop></audio>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://localhost:${(server.address() as AddressInfo).port}/`, close: () => server.close() })),
  );
};

const main = async () => {
  console.log(machineLine(chromiumVersion()));
  console.log(`recording stages in a bot's browser (${DEFAULT_BROWSER_MODE}), ${ROUNDS} round(s), a window of ${WINDOW_SECONDS} s each; load average ${loadAverage()}`);
  const server = await speechServer();
  const samples = new Map<Stage, Sample[]>(STAGES.map((s) => [s, []]));
  try {
    for (const round of range(ROUNDS)) {
      // the order swapped every round, so that a change of the machine's load does not favour one end
      const order = round % 2 ? [...STAGES].reverse() : STAGES;
      for (const stage of order) samples.get(stage)!.push(await measure(server.url, stage));
    }
  } finally {
    server.close();
  }
  const cpu = (stage: Stage) => median(samples.get(stage)!.map((s) => s.cpuCores));
  const base = cpu('blank page');
  const full = cpu('+ Opus recorder') - base;
  for (const [i, stage] of STAGES.entries()) {
    const runs = samples.get(stage)!;
    const step = i === 0 ? 0 : cpu(stage) - cpu(STAGES[i - 1]!);
    const kinds = new Map<string, number>();
    for (const s of runs) for (const [k, c] of s.byKind) kinds.set(k, (kinds.get(k) ?? 0) + c / runs.length);
    const top = [...kinds.entries()].sort((a, b) => b[1] - a[1]).filter(([, c]) => c >= 0.0005);
    console.log(
      `${stage.padEnd(18)} CPU ${percent(cpu(stage)).padStart(7)} of a core` +
        (i === 0 ? ' (baseline)' : `, this stage ${percent(step)} (${full > 0 ? ((100 * step) / full).toFixed(0) : '-'} % of recording's cost)`) +
        `; PSS ${mb(median(runs.map((s) => s.pssKb)))}; by kind: ${top.map(([k, c]) => `${k} ${percent(c)}`).join(', ')}`,
    );
  }
  console.log(`recording audio-only costs ${percent(full)} of a core over a blank page (x${(cpu('+ Opus recorder') / Math.max(base, 1e-6)).toFixed(2)} the baseline); load average ${loadAverage()} at the end`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
