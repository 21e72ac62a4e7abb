/**
 * The ramp of `npm run bench:bots`: steps of N bots recording N meetings at once (N mt meetings of the
 * sandbox, N bots POSTed together), stopping at the first step where any bot loses audio, ends wrongly or
 * records a file whose length disagrees with its own account; meanwhile the bots' memory (PSS) and CPU
 * (in total and by kind of process: where the CPU goes) are measured.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningSandbox } from '../../sandbox/server';
import { durationSeconds, soundSegments, type SilenceSettings } from './audio-check';
import {
  botProcessTrees,
  describeBot,
  intFromEnv,
  loadAverage,
  mb,
  messageOf,
  openMeeting,
  postBot,
  range,
  sleep,
  statusTimeMs,
  waitForEnd,
  waitForStatus,
  waitUntilNoBotRuns,
  type Bench,
  type BotDetails,
  type Meeting,
} from './bot-bench-kit';
import { busyPercent, CLOCK_TICKS_PER_SECOND, cpuTimes, pssKb, stillRunning, sumPssKb, type ProcessEntry } from './proc-stats';
import { processKind } from './process-kinds';

export type RecordingMode = 'audio_only' | 'speaker_view';

const PHRASE_TEXTS = [
  'The quarterly numbers are ready for review',
  'Please send the slides before Friday',
  'We ship the new release on Monday',
  'Marketing needs two more weeks',
  'The budget meeting moved to Thursday',
  'Our customer signed the contract today',
  'Let us look at the hiring plan',
  'The servers were upgraded last night',
  'Thank you all for joining this call',
  'We will meet again next week',
];
export const PHRASES = Math.min(intFromEnv('BENCH_PHRASES', 6), PHRASE_TEXTS.length);
/** One phrase starts every 4 s: each lasts about 2 s, so the recording window is PHRASES x 4 s. */
const PHRASE_EVERY_MS = 4000;
/** Quiet time kept after a phrase ends before the next starts, even if a late `speak` pushed the schedule. */
const MIN_GAP_MS = 1500;
/**
 * Chosen on single bots here: between phrases the captured tab is digital silence; inside a phrase
 * espeak-ng's pauses between words stay well under 0.6 s, while phrases are at least 1.5 s apart.
 */
const SILENCE: SilenceSettings = { noiseDb: -40, minSilenceSeconds: 0.6, minSoundSeconds: 0.1 };
const MEMORY_SAMPLE_EVERY_MS = 7000;

interface Phrase {
  readonly startedAtMs: number;
  readonly endsAtMs: number;
  /** the bot's page did not start playing it within the sandbox's 3 s */
  readonly botDidNotPlay: boolean;
}

const sleepUntil = (epochMs: number) => sleep(Math.max(0, epochMs - Date.now()));

const recordedSecondsOf = async (api: Bench['api'], botId: string): Promise<number | null> => {
  const events: { type: string; data: { usage?: { recorded_seconds: number } } }[] = (await api.get(`/v2/bots/${botId}/events`)).body.data.events;
  return events.find((e) => e.type === 'BotCompleted')?.data.usage?.recorded_seconds ?? null;
};

/** Speech is made once by espeak-ng and cached: made up front, it costs nothing inside a measured window. */
export const synthesizePhrases = async (sandbox: RunningSandbox) => {
  const meeting = await openMeeting(sandbox);
  for (const text of PHRASE_TEXTS.slice(0, PHRASES)) await sandbox.client.speak(meeting.meetingId, meeting.speakerId, text);
  await sandbox.client.end(meeting.meetingId);
};

// ---------------------------------------------------------------------------------------------------
// 2 and 3. The ramp: N bots recording at once, their audio checked, their memory and the CPU measured

/** The simulated participant says PHRASES distinct phrases, one every 4 s, never overlapping. */
const speakPhrases = async (sandbox: RunningSandbox, meeting: Meeting): Promise<Phrase[]> => {
  const spoken: Phrase[] = [];
  const firstAt = Date.now();
  let notBefore = firstAt;
  for (const i of range(PHRASES)) {
    await sleepUntil(Math.max(firstAt + i * PHRASE_EVERY_MS, notBefore));
    const result = await sandbox.client.speak(meeting.meetingId, meeting.speakerId, PHRASE_TEXTS[i]!);
    const startedAtMs = Date.parse(result.started_at);
    const endsAtMs = startedAtMs + result.duration_seconds * 1000;
    spoken.push({ startedAtMs, endsAtMs, botDidNotPlay: result.not_playing.length > 0 });
    notBefore = endsAtMs + MIN_GAP_MS;
  }
  await sleepUntil(notBefore); // the last phrase is over, with a quiet gap after it, before anyone leaves
  return spoken;
};

interface MemorySample {
  /** PSS of each bot: its node process and every descendant (Chromium and its helpers) */
  readonly perBotKb: readonly number[];
  readonly processCount: number;
  /** this process: the service, the sandbox and the bench itself */
  readonly selfPssKb: number;
  readonly selfRssBytes: number;
  readonly processes: readonly ProcessEntry[];
  /** the bots' PSS by kind of process (where the memory goes) */
  readonly byKindKb: ReadonlyMap<string, number>;
}

const botProcesses = async (bench: Bench, botIds: readonly string[]): Promise<ProcessEntry[]> => (await botProcessTrees(bench, botIds)).flat();

/** CPU used between two readings of the bots' processes, in cores, in total and by kind of process (where the CPU goes). */
const cpuBetween = async (from: readonly ProcessEntry[], to: readonly ProcessEntry[], seconds: number): Promise<{ total: number; byKind: Map<string, number> }> => {
  const byKind = new Map<string, number>();
  let total = 0;
  for (const p of to) {
    const cores = (p.cpuTicks - (from.find((f) => f.pid === p.pid && f.name === p.name)?.cpuTicks ?? 0)) / CLOCK_TICKS_PER_SECOND / seconds;
    const kind = await processKind(p.pid);
    byKind.set(kind, (byKind.get(kind) ?? 0) + cores);
    total += cores;
  }
  return { total, byKind };
};

const memorySample = async (bench: Bench, botIds: readonly string[]): Promise<MemorySample> => {
  const trees = await botProcessTrees(bench, botIds);
  const perBotKb = await Promise.all(trees.map((tree) => sumPssKb(tree.map((p) => p.pid))));
  const processes = trees.flat();
  const byKindKb = new Map<string, number>();
  for (const p of processes) {
    const kind = await processKind(p.pid);
    byKindKb.set(kind, (byKindKb.get(kind) ?? 0) + (await pssKb(p.pid)));
  }
  return { perBotKb, processCount: processes.length, selfPssKb: await pssKb('self'), selfRssBytes: process.memoryUsage().rss, processes, byKindKb };
};

export const totalKb = (m: MemorySample) => m.perBotKb.reduce((a, b) => a + b, 0);

export interface RecordingWindow {
  readonly phrasesByMeeting: readonly Phrase[][];
  readonly seconds: number;
  /** the whole machine, whoever uses it */
  readonly cpuBusyPercent: number;
  /** the bots' own processes, in cores (1 = one core fully busy) */
  readonly botsCpuCores: number;
  /** the same by kind of process: the bot's node, Chromium's browser, renderer, gpu, audio, network … */
  readonly cpuByKind: ReadonlyMap<string, number>;
  /** this process (the service, the sandbox playing the meetings, the bench), in cores */
  readonly selfCpuCores: number;
  /** the sample with the largest bot total */
  readonly memory: MemorySample;
  readonly memorySamples: number;
}

/** Every meeting's speaker talks at the same time; meanwhile memory is sampled and CPU time counted. */
const recordingWindow = async (bench: Bench, meetings: readonly Meeting[], botIds: readonly string[]): Promise<RecordingWindow> => {
  const cpuFrom = cpuTimes();
  const processesFrom = await botProcesses(bench, botIds);
  const selfFrom = process.cpuUsage();
  const startedAt = performance.now();
  let speaking = true;
  const speech = Promise.all(meetings.map((m) => speakPhrases(bench.sandbox, m))).finally(() => (speaking = false));
  const samples: MemorySample[] = [];
  const sampler = (async () => {
    // at least one sample even when the window is short
    do {
      await Promise.race([sleep(MEMORY_SAMPLE_EVERY_MS), speech.catch(() => undefined)]);
      if (speaking || samples.length === 0) samples.push(await memorySample(bench, botIds));
    } while (speaking);
  })();
  const phrasesByMeeting = await speech;
  await sampler;
  const cpuBusy = busyPercent(cpuFrom, cpuTimes());
  const seconds = (performance.now() - startedAt) / 1000;
  const self = process.cpuUsage(selfFrom);
  const cpu = await cpuBetween(processesFrom, await botProcesses(bench, botIds), seconds);
  const memory = samples.reduce((max, s) => (totalKb(s) > totalKb(max) ? s : max));
  return { phrasesByMeeting, seconds, cpuBusyPercent: cpuBusy, botsCpuCores: cpu.total, cpuByKind: cpu.byKind, selfCpuCores: (self.user + self.system) / 1e6 / seconds, memory, memorySamples: samples.length };
};

const download = async (bench: Bench, url: string, name: string): Promise<string> => {
  const file = path.join(bench.downloads, name);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download of ${name} answered ${response.status}`);
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
};

interface BotCheck {
  /** why this bot does not pass (empty: it passes) */
  readonly reasons: readonly string[];
  readonly segments: number;
  readonly phrases: number;
  /** |file length - recorded_seconds| */
  readonly lengthGapSeconds: number;
  /**
   * Where the last phrase's sound starts in the file, minus when it was spoken after the recording's start:
   * about 0 when a shorter file lost its tail (audio still on its way when the recorder stopped), negative by
   * the gap when audio went missing before the last phrase.
   */
  readonly lastPhraseShiftSeconds: number;
}

/** The bot's own account of its tab capture (its log: how much audio it delivered and dropped), for a file that came out short. */
const captureAccount = async (bot: BotDetails): Promise<string> => {
  const log = bot.artifacts.find((a) => a.key === 'bot.log');
  if (!log?.url) return '';
  const line = /the tab capture delivered .*/.exec(await (await fetch(log.url)).text());
  return line ? `; ${line[0]}` : '';
};

const checkBot = async (bench: Bench, bot: BotDetails, phrases: readonly Phrase[], recordingFromMs: number, leaveAtMs: number): Promise<BotCheck> => {
  const reasons: string[] = [];
  if (bot.status !== 'completed' || bot.error_code !== 'API_REQUEST') reasons.push(`ended ${describeBot(bot)}`);
  // Phrases wholly inside the bot's recording: after its in_call_recording, ended before the leave request.
  const expected = phrases.filter((p) => p.startedAtMs >= recordingFromMs && p.endsAtMs <= leaveAtMs);
  const recording = bot.artifacts.find((a) => a.artifact_type === 'recording');
  if (!recording?.url) {
    reasons.push(`no recording artifact among ${bot.artifacts.map((a) => a.key).join(', ') || 'none'}`);
    return { reasons, segments: 0, phrases: expected.length, lengthGapSeconds: NaN, lastPhraseShiftSeconds: NaN };
  }
  const file = await download(bench, recording.url, `${bot.bot_id}-${path.basename(recording.key)}`);
  const fileSeconds = await durationSeconds(file);
  const recordedSeconds = await recordedSecondsOf(bench.api, bot.bot_id);
  const lengthGapSeconds = recordedSeconds === null ? NaN : Math.abs(fileSeconds - recordedSeconds);
  const sound = await soundSegments(file, SILENCE);
  const lastSpoken = expected[expected.length - 1];
  const lastHeard = sound[sound.length - 1];
  const lastPhraseShiftSeconds = lastSpoken && lastHeard ? lastHeard.start - (lastSpoken.startedAtMs - recordingFromMs) / 1000 : NaN;
  if (recordedSeconds === null) reasons.push('no BotCompleted event with recorded_seconds');
  else if (lengthGapSeconds > 1) {
    reasons.push(
      `file lasts ${fileSeconds.toFixed(2)} s, bot says recorded_seconds ${recordedSeconds} (its last phrase ${lastPhraseShiftSeconds.toFixed(2)} s from where it was spoken${await captureAccount(bot)})`,
    );
  }
  const segments = sound.length;
  if (segments < expected.length) {
    // Sound time close to the speech time means phrases ran together (played late), not that audio vanished.
    const soundSeconds = sound.reduce((sum, s) => sum + s.end - s.start, 0);
    const spokenSeconds = expected.reduce((sum, p) => sum + (p.endsAtMs - p.startedAtMs) / 1000, 0);
    const unplayed = expected.filter((p) => p.botDidNotPlay).length;
    reasons.push(
      `${segments} speech segments for ${expected.length} phrases (${soundSeconds.toFixed(1)} s of sound for ${spokenSeconds.toFixed(1)} s spoken` +
        `${unplayed > 0 ? `; ${unplayed} phrase(s) not started by the bot's page within the sandbox's 3 s` : ''})`,
    );
  }
  return { reasons, segments, phrases: expected.length, lengthGapSeconds, lastPhraseShiftSeconds };
};

export interface StepResult {
  readonly n: number;
  readonly pass: boolean;
  /** per failing bot (or for the step), why */
  readonly reasons: readonly string[];
  readonly window: RecordingWindow | null;
  /** processes seen under the bots while recording that still run a while after every bot process exited */
  readonly leftovers: readonly ProcessEntry[];
  readonly checks: readonly BotCheck[];
  readonly seconds: number;
  /** the machine's 1-minute load average when the step started and when its bots had all left */
  readonly load: { readonly atStart: string; readonly atEnd: string };
}

/** Chromium's helpers take a moment to go after the bot process exits; what is still there after that is left over. */
const LEFTOVER_GRACE_MS = 5000;
const stillRunningAfterGrace = async (processes: readonly ProcessEntry[]): Promise<ProcessEntry[]> => {
  await sleep(LEFTOVER_GRACE_MS);
  return (await Promise.all(processes.map(async (p) => ((await stillRunning(p)) ? [p] : [])))).flat();
};

/** Leaves every bot and waits until each has ended and every bot process has exited; a bot that never ends is a reason. */
const leaveAll = async (bench: Bench, botIds: readonly string[], reasons: string[]): Promise<(BotDetails | null)[]> => {
  await Promise.all(botIds.map((id) => bench.api.post(`/v2/bots/${id}/leave`)));
  const ended = await Promise.allSettled(botIds.map((id) => waitForEnd(bench.api, id)));
  await waitUntilNoBotRuns(bench);
  return ended.map((e, i) => {
    if (e.status === 'fulfilled') return e.value;
    reasons.push(`bot ${i + 1}: ${messageOf(e.reason)}`);
    return null;
  });
};

const runStep = async (bench: Bench, n: number, mode: RecordingMode): Promise<StepResult> => {
  const stepStarted = performance.now();
  const loadAtStart = loadAverage();
  const meetings = await Promise.all(range(n).map(() => openMeeting(bench.sandbox)));
  // All N POSTs go out together: the bots start, join and record at the same time.
  const botIds = (await Promise.all(meetings.map((m) => postBot(bench.api, m, mode)))).map((b) => b.botId);
  const joined = await Promise.allSettled(botIds.map((id) => waitForStatus(bench.api, id, 'in_call_recording', 250)));
  const reasons = joined.flatMap((j, i) => (j.status === 'rejected' ? [`bot ${i + 1}: ${messageOf(j.reason)}`] : []));

  // Speech starts only once every bot records: the window measures N bots recording at once.
  let window: RecordingWindow | null = null;
  if (reasons.length === 0) window = await recordingWindow(bench, meetings, botIds).catch((error) => (reasons.push(`recording window: ${messageOf(error)}`), null));
  const leaveAtMs = Date.now();
  const ended = await leaveAll(bench, botIds, reasons);
  const loadAtEnd = loadAverage();
  const leftovers = window ? await stillRunningAfterGrace(window.memory.processes) : [];

  const checks: BotCheck[] = [];
  if (window) {
    // one at a time: ffmpeg on a 30 s file is quick, and the bots are gone by now
    for (const [i, bot] of ended.entries()) {
      if (!bot) continue;
      const check = await checkBot(bench, bot, window.phrasesByMeeting[i]!, statusTimeMs(bot, 'in_call_recording'), leaveAtMs);
      checks.push(check);
      if (check.reasons.length > 0) reasons.push(`bot ${i + 1}: ${check.reasons.join('; ')}`);
    }
  }
  await Promise.all(meetings.map((m) => bench.sandbox.client.end(m.meetingId)));
  return { n, pass: reasons.length === 0, reasons, window, leftovers, checks, seconds: (performance.now() - stepStarted) / 1000, load: { atStart: loadAtStart, atEnd: loadAtEnd } };
};

const printStep = (step: StepResult) => {
  console.log(`   N=${String(step.n).padEnd(3)} ${step.pass ? 'PASS' : 'FAIL'}   (step took ${step.seconds.toFixed(0)} s; load average ${step.load.atStart} at its start, ${step.load.atEnd} once its bots left)`);
  const w = step.window;
  if (w) {
    const bots = totalKb(w.memory);
    console.log(
      `          recording window ${w.seconds.toFixed(1)} s, ${PHRASES} phrases per meeting; machine CPU busy ${w.cpuBusyPercent.toFixed(0)} % of ${os.cpus().length} cores` +
        ` (the bots' own processes: ${(100 * w.botsCpuCores).toFixed(0)} % of a core, ${((100 * w.botsCpuCores) / step.n).toFixed(0)} % per bot)`,
    );
    const byKind = [...w.cpuByKind.entries()].sort((a, b) => b[1] - a[1]).filter(([, cores]) => cores >= 0.0005);
    console.log(`          where a bot's CPU goes: ${byKind.map(([kind, cores]) => `${kind} ${((100 * cores) / step.n).toFixed(1)} %`).join(', ')}`);
    const memoryByKind = [...w.memory.byKindKb.entries()].sort((a, b) => b[1] - a[1]);
    console.log(`          where a bot's memory goes (PSS): ${memoryByKind.map(([kind, kb]) => `${kind} ${mb(kb / step.n)}`).join(', ')}`);
    console.log(
      `          PSS of the bots ${mb(bots)} total, ${mb(bots / step.n)} per bot (largest ${mb(Math.max(...w.memory.perBotKb))}; ${w.memory.processCount} processes; peak of ${w.memorySamples} samples)`,
    );
    console.log(
      `          this process (service + sandbox + bench): PSS ${mb(w.memory.selfPssKb)}, RSS ${mb(w.memory.selfRssBytes / 1024)}, CPU ${(100 * w.selfCpuCores).toFixed(0)} % of a core`,
    );
  }
  if (step.checks.length > 0) {
    const ratios = step.checks.map((c) => `${c.segments}/${c.phrases}`).join(' ');
    const worstGap = Math.max(...step.checks.map((c) => c.lengthGapSeconds).filter((g) => !Number.isNaN(g)), 0);
    const shifts = step.checks.map((c) => c.lastPhraseShiftSeconds).filter((g) => !Number.isNaN(g));
    console.log(
      `          speech segments/phrases per bot: ${ratios}; largest |file - recorded_seconds| ${worstGap.toFixed(2)} s; last phrase from where it was spoken: ${Math.min(...shifts).toFixed(2)} to ${Math.max(...shifts).toFixed(2)} s`,
    );
  }
  if (step.leftovers.length > 0) {
    console.log(`          ${step.leftovers.length} processes of these bots still run ${LEFTOVER_GRACE_MS / 1000} s after every bot process exited: ${step.leftovers.map((p) => `${p.pid} ${p.name}`).join(', ')}`);
  }
  step.reasons.forEach((r) => console.log(`          ${r}`));
};

/** `title`: the part's heading; steps of `ramp` bots recording in `mode`, until the first that fails. */
export const benchRamp = async (bench: Bench, title: string, ramp: readonly number[], mode: RecordingMode): Promise<StepResult[]> => {
  console.log(`\n${title}: ${mode} bots recording at once, ramp ${ramp.join(', ')} (stops at the first failing step)`);
  console.log(
    `   each step: N mt meetings, N bots POSTed at once; once all record, each meeting's speaker says ${PHRASES} distinct phrases (one every ${PHRASE_EVERY_MS / 1000} s), then all leave.`,
  );
  console.log(
    `   a bot passes if it ended completed/API_REQUEST, its file is within 1 s of its recorded_seconds, and silencedetect (${SILENCE.noiseDb} dB, ${SILENCE.minSilenceSeconds} s) finds at least one speech segment per phrase`,
  );
  const steps: StepResult[] = [];
  for (const n of ramp) {
    const step = await runStep(bench, n, mode);
    printStep(step);
    steps.push(step);
    if (!step.pass) break;
  }
  return steps;
};

