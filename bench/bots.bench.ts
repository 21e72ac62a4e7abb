/**
 * `npm run bench:bots`: real bots (one child process and one Chromium each) in meetings of the local
 * sandbox, driven through the public API of the whole service, all on this machine:
 *
 *   1. seconds from `POST /v2/bots` to `in_call_recording`, bots one after another, and each bot's memory
 *      while it records alone: on the sandbox's own mt flavour (the baseline) and on the replicas of
 *      Google Meet (https://meet.google.com/<code>), Microsoft Teams (its meetup-join link on
 *      teams.microsoft.com, past the AV-confirm modal) and Zoom's web client
 *      (https://zoom.us/j/<id>?pwd=…), reached through SANDBOX_REPLICAS, alternating; signed in
 *      (issue 20) on the Teams replica (an organisation account on Microsoft's sign-in replica) and the
 *      Meet replica (Google's sign-in with SAML single sign-on to the service's own identity provider),
 *      each set beside its own anonymous join of the same run; and on the Zoom replica through the
 *      Meeting SDK with an OBF token from a token URL (a meeting of another organisation, the team's own
 *      SDK credentials signing, the token fetched by the service at join time), beside the plain join of
 *      the same replica;
 *   2. how many audio-only bots record at once without missing audio: a ramp of steps of N bots in N
 *      meetings, stopping at the first step where any bot loses audio, ends wrongly or records a file
 *      whose length disagrees with its own account;
 *   3. memory (PSS) per bot and machine CPU while the N bots record;
 *   4. the fingerprint mode the bot runs Chromium in (headful on its own display) against new headless:
 *      the fingerprint checks each trips, and each one's CPU and memory per recording bot (fingerprint-modes.ts).
 *
 * Every figure comes from one run. Nothing here asserts a time: a slow machine gives slower figures,
 * not a failure. Sizes: BENCH_LATENCY_BOTS (10 per flavour), BENCH_RAMP (1,2,4,6,8,12,16; step 1 checks that the
 * speech detection counts the phrases of a single bot exactly), BENCH_MAX_BOTS (16, caps the ramp),
 * BENCH_PHRASES (6 phrases, one every 4 s).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreateMeetingRequest } from '../sandbox/client';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { apiClient, createTeam } from '../test/support/http-client';
import { startTestService, type TestService } from '../test/support/test-service';
import { benchFingerprintModes } from './fingerprint-modes';
import { TokenServer } from '../test/support/token-server';
import { durationSeconds, soundSegments, type SilenceSettings } from './lib/audio-check';
import { busyPercent, CLOCK_TICKS_PER_SECOND, cpuTimes, processTable, processTree, pssKb, stillRunning, sumPssKb, type ProcessEntry } from './lib/proc-stats';

const intFromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${process.env[name]}`);
  return value;
};

const LATENCY_BOTS = intFromEnv('BENCH_LATENCY_BOTS', 10);
const MAX_BOTS = intFromEnv('BENCH_MAX_BOTS', 16);
const RAMP = (process.env.BENCH_RAMP ?? '1,2,4,6,8,12,16')
  .split(',')
  .map(Number)
  .filter((n) => Number.isSafeInteger(n) && n > 0 && n <= MAX_BOTS);
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
const PHRASES = Math.min(intFromEnv('BENCH_PHRASES', 6), PHRASE_TEXTS.length);
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
const JOIN_TIMEOUT_MS = 180_000;
const END_TIMEOUT_MS = 180_000;
const BOT_NAME = 'Bench Bot';
/** a recording bot settles this long before its memory is sampled in part 1 */
const SETTLE_MS = 3000;

/** Where part 1's bots join: the sandbox's own mt pages (the baseline) and each replica under its real host. */
const BASELINE = 'sandbox mt';
const PLAIN_ZOOM = 'Zoom replica';
const TOKEN_URL_ZOOM = 'Zoom replica, token URL';
const FLAVOURS = [BASELINE, 'Meet replica', 'Teams replica', PLAIN_ZOOM, TOKEN_URL_ZOOM, 'Teams replica, signed in', 'Meet replica, signed in'] as const;
/** the organisation of the token-URL flavour's meetings: the team's SDK app is of another one, so it needs the OBF token */
const HOST_ORG = 'bench-host-org';
type Flavour = (typeof FLAVOURS)[number];
/** Each flavour's meeting: no lobby, so the bot records as soon as it is in. */
const MEETINGS: Record<Flavour, CreateMeetingRequest> = {
  'sandbox mt': { platform: 'mt', lobby: false },
  'Meet replica': { platform: 'mt', lobby: false, replica: 'meet' },
  'Teams replica': { platform: 'tm', lobby: false, replica: 'teams' },
  'Zoom replica': { platform: 'vc', lobby: false, replica: 'zoom' },
  'Zoom replica, token URL': { platform: 'vc', lobby: false, replica: 'zoom', organisation: HOST_ORG, recording_permission: 'grant' },
  'Teams replica, signed in': { platform: 'tm', lobby: false, replica: 'teams' },
  'Meet replica, signed in': { platform: 'mt', lobby: false, replica: 'meet' },
};
/** A signed-in flavour's sign-in choice (its logins are set up once, setUpSignIns), and the anonymous join it is set beside. */
const SIGN_IN: Partial<Record<Flavour, { readonly body: Record<string, unknown>; readonly anonymous: Flavour }>> = {
  'Teams replica, signed in': { body: { tm_config: { email_group: 'bench@contoso.com' } }, anonymous: 'Teams replica' },
  'Meet replica, signed in': { body: { mt_config: { email_group: 'bench@example.com' } }, anonymous: 'Meet replica' },
};

type Api = ReturnType<typeof apiClient>;

interface Bench {
  readonly sandbox: RunningSandbox;
  readonly t: TestService;
  readonly api: Api;
  readonly downloads: string;
  /** the token-URL flavour: a team whose stored SDK credentials sign its joins, the OBF token's user, the token URL */
  readonly vc: { readonly api: Api; readonly userId: string; readonly tokens: TokenServer };
}

interface StatusEntry {
  readonly status: string;
  readonly created_at: string;
}

/** What GET /v2/bots/{id} answers, the fields used here. */
interface BotDetails {
  readonly bot_id: string;
  readonly status: string;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly status_history: readonly StatusEntry[];
  readonly artifacts: readonly { readonly artifact_type: string; readonly key: string; readonly url: string | null }[];
}

interface Meeting {
  readonly meetingId: string;
  readonly url: string;
  readonly speakerId: string;
}

interface Phrase {
  readonly startedAtMs: number;
  readonly endsAtMs: number;
  /** the bot's page did not start playing it within the sandbox's 3 s */
  readonly botDidNotPlay: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepUntil = (epochMs: number) => sleep(Math.max(0, epochMs - Date.now()));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const seconds = (s: number) => `${s.toFixed(2)} s`;

/** Nearest rank: the smallest value with at least p % of the samples at or below it (p95 of 10 is the largest). */
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

// ---------------------------------------------------------------------------------------------------
// Meetings and bots, through the sandbox's control API and the service's public API

/** A meeting of the flavour without a lobby (the bot records as soon as it is in) with one simulated participant. */
const openMeeting = async (sandbox: RunningSandbox, flavour: Flavour = BASELINE, obfUser: string | null = null): Promise<Meeting> => {
  const meeting = await sandbox.client.createMeeting(MEETINGS[flavour]);
  // the token-URL flavour's participant is the OBF token's user: the bot gets in only while they are there
  const speaker = flavour === TOKEN_URL_ZOOM && obfUser ? await sandbox.client.addSimulatedUser(meeting.meeting_id, 'Speaker', obfUser) : await sandbox.client.addSimulated(meeting.meeting_id, 'Speaker');
  return { meetingId: meeting.meeting_id, url: meeting.url, speakerId: speaker.participant_id };
};

const postBot = async (api: Api, meeting: Meeting, extra: Record<string, unknown> = {}): Promise<{ botId: string; postedAt: number }> => {
  const postedAt = performance.now();
  const created = await api.post('/v2/bots', { meeting_url: meeting.url, bot_name: BOT_NAME, recording_mode: 'audio_only', ...extra });
  if (created.status !== 201) throw new Error(`POST /v2/bots answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { botId: created.body.data.bot_id, postedAt };
};

const botDetails = async (api: Api, botId: string): Promise<BotDetails> => (await api.get(`/v2/bots/${botId}`)).body.data;

const hasEnded = (bot: BotDetails) => bot.status === 'completed' || bot.status === 'failed';
const describeBot = (bot: BotDetails) =>
  `${bot.status}${bot.error_code ? ` ${bot.error_code}` : ''}${bot.error_message ? ` (${bot.error_message})` : ''}, history ${bot.status_history.map((s) => s.status).join(' > ')}`;

/** Polls until the bot's history shows `status`; `seenAt` is when this poll first saw it (performance.now()). */
const waitForStatus = async (api: Api, botId: string, status: string, pollMs: number): Promise<{ bot: BotDetails; seenAt: number }> => {
  const deadline = Date.now() + JOIN_TIMEOUT_MS;
  for (;;) {
    const bot = await botDetails(api, botId);
    if (bot.status_history.some((s) => s.status === status)) return { bot, seenAt: performance.now() };
    if (hasEnded(bot)) throw new Error(`ended before ${status}: ${describeBot(bot)}`);
    if (Date.now() > deadline) throw new Error(`no ${status} after ${JOIN_TIMEOUT_MS / 1000} s: ${describeBot(bot)}`);
    await sleep(pollMs);
  }
};

const waitForEnd = async (api: Api, botId: string): Promise<BotDetails> => {
  const deadline = Date.now() + END_TIMEOUT_MS;
  for (;;) {
    const bot = await botDetails(api, botId);
    if (hasEnded(bot)) return bot;
    if (Date.now() > deadline) throw new Error(`bot ${botId} did not end within ${END_TIMEOUT_MS / 1000} s: ${describeBot(bot)}`);
    await sleep(250);
  }
};

/** Bots finish their uploads after their status ends; the next measurement starts only once every bot process has exited. */
const waitUntilNoBotRuns = async (bench: Bench) => {
  const deadline = Date.now() + END_TIMEOUT_MS;
  while (bench.t.service.dispatcher.runningCount > 0 && Date.now() < deadline) await sleep(200);
};

const statusTimeMs = (bot: BotDetails, status: string): number => {
  const entry = bot.status_history.find((s) => s.status === status);
  if (!entry) throw new Error(`no ${status} in the history of ${bot.bot_id}`);
  return Date.parse(entry.created_at);
};

const recordedSecondsOf = async (api: Api, botId: string): Promise<number | null> => {
  const events: { type: string; data: { usage?: { recorded_seconds: number } } }[] = (await api.get(`/v2/bots/${botId}/events`)).body.data.events;
  return events.find((e) => e.type === 'BotCompleted')?.data.usage?.recorded_seconds ?? null;
};

// ---------------------------------------------------------------------------------------------------
// 1. Latency from POST to in_call_recording

interface LatencySample {
  /** from the bot's own status_history: created_at of queued to created_at of in_call_recording */
  readonly ownSeconds: number;
  /** from sending the POST to the first poll that saw in_call_recording */
  readonly wallSeconds: number;
  readonly toJoiningCall: number;
  readonly toInCall: number;
  readonly toRecording: number;
  /** PSS of the bot's process tree (node and Chromium), SETTLE_MS after it started recording */
  readonly pssKb: number;
}

const oneLatencySample = async (bench: Bench, flavour: Flavour): Promise<LatencySample> => {
  const meeting = await openMeeting(bench.sandbox, flavour, bench.vc.userId);
  const viaTokenUrl = flavour === TOKEN_URL_ZOOM;
  const api = viaTokenUrl ? bench.vc.api : bench.api;
  const extra = viaTokenUrl ? { vc_config: { obf_token_url: bench.vc.tokens.url(`/obf/${meeting.meetingId}`) } } : (SIGN_IN[flavour]?.body ?? {});
  const { botId, postedAt } = await postBot(api, meeting, extra);
  try {
    const { bot, seenAt } = await waitForStatus(api, botId, 'in_call_recording', 100);
    await sleep(SETTLE_MS);
    const [tree] = await botProcessTrees(bench, [botId]);
    const pss = await sumPssKb(tree!.map((p) => p.pid));
    const at = (status: string) => statusTimeMs(bot, status) / 1000;
    return {
      pssKb: pss,
      ownSeconds: at('in_call_recording') - at('queued'),
      wallSeconds: (seenAt - postedAt) / 1000,
      toJoiningCall: at('joining_call') - at('queued'),
      toInCall: at('in_call_not_recording') - at('joining_call'),
      toRecording: at('in_call_recording') - at('in_call_not_recording'),
    };
  } finally {
    await api.post(`/v2/bots/${botId}/leave`);
    await waitForEnd(api, botId).catch(() => undefined);
    await waitUntilNoBotRuns(bench);
    await bench.sandbox.client.end(meeting.meetingId);
  }
};

const latencyLine = (label: string, values: number[]) =>
  `   ${label.padEnd(52)} p50 ${seconds(percentile(values, 50))}   p95 ${seconds(percentile(values, 95))}   (min ${seconds(Math.min(...values))}, max ${seconds(Math.max(...values))})`;

const printLatency = (flavour: Flavour, samples: readonly LatencySample[]) => {
  console.log(`   ${flavour}: ${samples.length} of ${LATENCY_BOTS} bots reached in_call_recording`);
  if (samples.length === 0) return;
  console.log(latencyLine("  bot's status_history, queued -> in_call_recording", samples.map((s) => s.ownSeconds)));
  console.log(latencyLine('  wall clock, POST sent -> status first seen (100 ms poll)', samples.map((s) => s.wallSeconds)));
  const p50 = (pick: (s: LatencySample) => number) => seconds(percentile(samples.map(pick), 50));
  console.log(
    `     where it goes (p50 of each part): queued -> joining_call ${p50((s) => s.toJoiningCall)} (dispatch, bot process start); ` +
      `-> in_call_not_recording ${p50((s) => s.toInCall)} (Chromium, page, join); -> in_call_recording ${p50((s) => s.toRecording)} (recorder start)`,
  );
  console.log(`     PSS of the recording bot (node + Chromium, alone): p50 ${mb(percentile(samples.map((s) => s.pssKb), 50))}`);
};

type LatencyByFlavour = Record<Flavour, LatencySample[]>;
const noLatency = (): LatencyByFlavour => Object.fromEntries(FLAVOURS.map((f) => [f, []])) as unknown as LatencyByFlavour;

const benchLatency = async (bench: Bench): Promise<LatencyByFlavour> => {
  console.log(`\n1. POST /v2/bots -> in_call_recording: ${LATENCY_BOTS} bots per flavour ONE AFTER ANOTHER, flavours alternating (each leaves once recording and its process exits before the next POST)`);
  console.log(`   meeting without lobby, one simulated participant present, audio_only; ${BASELINE} (baseline) vs ${FLAVOURS.slice(1).join(', ')}; memory sampled ${SETTLE_MS / 1000} s after recording starts`);
  const samples = noLatency();
  const failures: string[] = [];
  for (const i of range(LATENCY_BOTS)) {
    for (const flavour of FLAVOURS) {
      try {
        samples[flavour].push(await oneLatencySample(bench, flavour));
      } catch (error) {
        failures.push(`${flavour} bot ${i + 1}: ${messageOf(error)}`);
      }
    }
  }
  for (const flavour of FLAVOURS) printLatency(flavour, samples[flavour]);
  const base = samples[BASELINE];
  for (const flavour of FLAVOURS.slice(1)) {
    const replica = samples[flavour];
    if (base.length === 0 || replica.length === 0) continue;
    const ratio = (pick: (s: LatencySample) => number) => (percentile(replica.map(pick), 50) / percentile(base.map(pick), 50)).toFixed(2);
    console.log(`   ${flavour} / ${BASELINE}, p50: time to record x${ratio((s) => s.ownSeconds)}, memory per bot x${ratio((s) => s.pssKb)}`);
  }
  for (const [flavour, signIn] of Object.entries(SIGN_IN) as [Flavour, { anonymous: Flavour }][]) {
    const signed = samples[flavour];
    const anonymous = samples[signIn.anonymous];
    if (signed.length === 0 || anonymous.length === 0) continue;
    const p50 = (xs: LatencySample[]) => percentile(xs.map((s) => s.ownSeconds), 50);
    console.log(`   ${flavour} / ${signIn.anonymous} (anonymous join), p50 time to record: x${(p50(signed) / p50(anonymous)).toFixed(2)} (+${seconds(p50(signed) - p50(anonymous))} for the sign-in)`);
  }
  const plain = samples[PLAIN_ZOOM];
  const viaUrl = samples[TOKEN_URL_ZOOM];
  if (plain.length > 0 && viaUrl.length > 0) {
    const ratio = (pick: (s: LatencySample) => number) => (percentile(viaUrl.map(pick), 50) / percentile(plain.map(pick), 50)).toFixed(2);
    console.log(`   ${TOKEN_URL_ZOOM} / ${PLAIN_ZOOM}, p50: time to record x${ratio((s) => s.ownSeconds)}, memory per bot x${ratio((s) => s.pssKb)} (the join with a token URL beside the plain join)`);
  }
  console.log('   (nearest-rank percentiles: p95 of 10 is the slowest)');
  failures.forEach((f) => console.log(`   failed: ${f}`));
  return samples;
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
}

/** The processes of each bot right now: its node process and all its descendants. */
const botProcessTrees = async (bench: Bench, botIds: readonly string[]): Promise<ProcessEntry[][]> => {
  const table = await processTable();
  return botIds.map((id) => {
    const pid = bench.t.service.dispatcher.pidOf(id);
    return pid === undefined ? [] : processTree(pid, table);
  });
};

const botsCpuTicks = async (bench: Bench, botIds: readonly string[]) =>
  (await botProcessTrees(bench, botIds)).flat().reduce((sum, p) => sum + p.cpuTicks, 0);

const memorySample = async (bench: Bench, botIds: readonly string[]): Promise<MemorySample> => {
  const trees = await botProcessTrees(bench, botIds);
  const perBotKb = await Promise.all(trees.map((tree) => sumPssKb(tree.map((p) => p.pid))));
  const processes = trees.flat();
  return { perBotKb, processCount: processes.length, selfPssKb: await pssKb('self'), selfRssBytes: process.memoryUsage().rss, processes };
};

const totalKb = (m: MemorySample) => m.perBotKb.reduce((a, b) => a + b, 0);

interface RecordingWindow {
  readonly phrasesByMeeting: readonly Phrase[][];
  readonly seconds: number;
  /** the whole machine, whoever uses it */
  readonly cpuBusyPercent: number;
  /** the bots' own processes, in cores (1 = one core fully busy) */
  readonly botsCpuCores: number;
  /** the sample with the largest bot total */
  readonly memory: MemorySample;
  readonly memorySamples: number;
}

/** Every meeting's speaker talks at the same time; meanwhile memory is sampled and CPU time counted. */
const recordingWindow = async (bench: Bench, meetings: readonly Meeting[], botIds: readonly string[]): Promise<RecordingWindow> => {
  const cpuFrom = cpuTimes();
  const botTicksFrom = await botsCpuTicks(bench, botIds);
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
  const botsCpuCores = ((await botsCpuTicks(bench, botIds)) - botTicksFrom) / CLOCK_TICKS_PER_SECOND / seconds;
  const memory = samples.reduce((max, s) => (totalKb(s) > totalKb(max) ? s : max));
  return { phrasesByMeeting, seconds, cpuBusyPercent: cpuBusy, botsCpuCores, memory, memorySamples: samples.length };
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
}

const checkBot = async (bench: Bench, bot: BotDetails, phrases: readonly Phrase[], recordingFromMs: number, leaveAtMs: number): Promise<BotCheck> => {
  const reasons: string[] = [];
  if (bot.status !== 'completed' || bot.error_code !== 'API_REQUEST') reasons.push(`ended ${describeBot(bot)}`);
  // Phrases wholly inside the bot's recording: after its in_call_recording, ended before the leave request.
  const expected = phrases.filter((p) => p.startedAtMs >= recordingFromMs && p.endsAtMs <= leaveAtMs);
  const recording = bot.artifacts.find((a) => a.artifact_type === 'recording');
  if (!recording?.url) {
    reasons.push(`no recording artifact among ${bot.artifacts.map((a) => a.key).join(', ') || 'none'}`);
    return { reasons, segments: 0, phrases: expected.length, lengthGapSeconds: NaN };
  }
  const file = await download(bench, recording.url, `${bot.bot_id}-${path.basename(recording.key)}`);
  const fileSeconds = await durationSeconds(file);
  const recordedSeconds = await recordedSecondsOf(bench.api, bot.bot_id);
  const lengthGapSeconds = recordedSeconds === null ? NaN : Math.abs(fileSeconds - recordedSeconds);
  if (recordedSeconds === null) reasons.push('no BotCompleted event with recorded_seconds');
  else if (lengthGapSeconds > 1) reasons.push(`file lasts ${fileSeconds.toFixed(2)} s, bot says recorded_seconds ${recordedSeconds}`);
  const sound = await soundSegments(file, SILENCE);
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
  return { reasons, segments, phrases: expected.length, lengthGapSeconds };
};

interface StepResult {
  readonly n: number;
  readonly pass: boolean;
  /** per failing bot (or for the step), why */
  readonly reasons: readonly string[];
  readonly window: RecordingWindow | null;
  /** processes seen under the bots while recording that still run a while after every bot process exited */
  readonly leftovers: readonly ProcessEntry[];
  readonly checks: readonly BotCheck[];
  readonly seconds: number;
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

const runStep = async (bench: Bench, n: number): Promise<StepResult> => {
  const stepStarted = performance.now();
  const meetings = await Promise.all(range(n).map(() => openMeeting(bench.sandbox)));
  // All N POSTs go out together: the bots start, join and record at the same time.
  const botIds = (await Promise.all(meetings.map((m) => postBot(bench.api, m)))).map((b) => b.botId);
  const joined = await Promise.allSettled(botIds.map((id) => waitForStatus(bench.api, id, 'in_call_recording', 250)));
  const reasons = joined.flatMap((j, i) => (j.status === 'rejected' ? [`bot ${i + 1}: ${messageOf(j.reason)}`] : []));

  // Speech starts only once every bot records: the window measures N bots recording at once.
  let window: RecordingWindow | null = null;
  if (reasons.length === 0) window = await recordingWindow(bench, meetings, botIds).catch((error) => (reasons.push(`recording window: ${messageOf(error)}`), null));
  const leaveAtMs = Date.now();
  const ended = await leaveAll(bench, botIds, reasons);
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
  return { n, pass: reasons.length === 0, reasons, window, leftovers, checks, seconds: (performance.now() - stepStarted) / 1000 };
};

const printStep = (step: StepResult) => {
  console.log(`   N=${String(step.n).padEnd(3)} ${step.pass ? 'PASS' : 'FAIL'}   (step took ${step.seconds.toFixed(0)} s)`);
  const w = step.window;
  if (w) {
    const bots = totalKb(w.memory);
    console.log(
      `          recording window ${w.seconds.toFixed(1)} s, ${PHRASES} phrases per meeting; machine CPU busy ${w.cpuBusyPercent.toFixed(0)} % of ${os.cpus().length} cores` +
        ` (the bots' own processes: ${(100 * w.botsCpuCores).toFixed(0)} % of a core, ${((100 * w.botsCpuCores) / step.n).toFixed(0)} % per bot)`,
    );
    console.log(
      `          PSS of the bots ${mb(bots)} total, ${mb(bots / step.n)} per bot (largest ${mb(Math.max(...w.memory.perBotKb))}; ${w.memory.processCount} processes; peak of ${w.memorySamples} samples)`,
    );
    console.log(`          this process (service + sandbox + bench): PSS ${mb(w.memory.selfPssKb)}, RSS ${mb(w.memory.selfRssBytes / 1024)}`);
  }
  if (step.checks.length > 0) {
    const ratios = step.checks.map((c) => `${c.segments}/${c.phrases}`).join(' ');
    const worstGap = Math.max(...step.checks.map((c) => c.lengthGapSeconds).filter((g) => !Number.isNaN(g)), 0);
    console.log(`          speech segments/phrases per bot: ${ratios}; largest |file - recorded_seconds| ${worstGap.toFixed(2)} s`);
  }
  if (step.leftovers.length > 0) {
    console.log(`          ${step.leftovers.length} processes of these bots still run ${LEFTOVER_GRACE_MS / 1000} s after every bot process exited: ${step.leftovers.map((p) => `${p.pid} ${p.name}`).join(', ')}`);
  }
  step.reasons.forEach((r) => console.log(`          ${r}`));
};

const benchRamp = async (bench: Bench): Promise<StepResult[]> => {
  console.log(`\n2-3. audio-only bots recording at once: ramp ${RAMP.join(', ')} (stops at the first failing step)`);
  console.log(
    `   each step: N mt meetings, N bots POSTed at once; once all record, each meeting's speaker says ${PHRASES} distinct phrases (one every ${PHRASE_EVERY_MS / 1000} s), then all leave.`,
  );
  console.log(
    `   a bot passes if it ended completed/API_REQUEST, its file is within 1 s of its recorded_seconds, and silencedetect (${SILENCE.noiseDb} dB, ${SILENCE.minSilenceSeconds} s) finds at least one speech segment per phrase`,
  );
  const steps: StepResult[] = [];
  for (const n of RAMP) {
    const step = await runStep(bench, n);
    printStep(step);
    steps.push(step);
    if (!step.pass) break;
  }
  return steps;
};

// ---------------------------------------------------------------------------------------------------

const printSummary = (latency: LatencyByFlavour, steps: readonly StepResult[], chromium: string) => {
  const passed = steps.filter((s) => s.pass);
  const best = passed[passed.length - 1];
  const failed = steps.find((s) => !s.pass);
  const date = new Date().toISOString().slice(0, 10);
  console.log(`\n--- summary for docs/performance.md ---`);
  console.log(`Bots on this machine (\`npm run bench:bots\`, ${date}; ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${chromium}, node ${process.version}):`);
  for (const flavour of FLAVOURS) {
    const samples = latency[flavour];
    if (samples.length === 0) continue;
    const own = samples.map((s) => s.ownSeconds);
    const wall = samples.map((s) => s.wallSeconds);
    console.log(
      `- ${flavour}: POST /v2/bots -> in_call_recording (${samples.length} bots one after another, bot's own timestamps): p50 ${seconds(percentile(own, 50))}, p95 ${seconds(percentile(own, 95))}` +
        ` (wall clock p50 ${seconds(percentile(wall, 50))}, p95 ${seconds(percentile(wall, 95))}); PSS of one recording bot p50 ${mb(percentile(samples.map((s) => s.pssKb), 50))}`,
    );
  }
  const ramp = `ramp ${steps.map((s) => s.n).join(', ')}`;
  if (!best?.window) {
    console.log(`- audio-only bots recording at once without missing audio: no step passed (${ramp})`);
  } else {
    const after = failed ? `; ${failed.n} failed with ${failed.reasons.length} failing bot(s), first ${failed.reasons[0] ?? ''}` : `; the largest step tried`;
    console.log(`- audio-only bots recording at once without missing audio: ${best.n} (${ramp}${after})`);
    const bots = totalKb(best.window.memory);
    console.log(
      `- at ${best.n} bots: PSS ${mb(bots / best.n)} per bot (${mb(bots)} for all bot processes; service + sandbox process ${mb(best.window.memory.selfPssKb)}), CPU busy ${best.window.cpuBusyPercent.toFixed(0)} % of the machine while recording` +
        ` (the bots' own processes ${((100 * best.window.botsCpuCores) / best.n).toFixed(0)} % of a core per bot)`,
    );
  }
};

/** Speech is made once by espeak-ng and cached: made up front, it costs nothing inside a measured window. */
const synthesizePhrases = async (sandbox: RunningSandbox) => {
  const meeting = await openMeeting(sandbox);
  for (const text of PHRASE_TEXTS.slice(0, PHRASES)) await sandbox.client.speak(meeting.meetingId, meeting.speakerId, text);
  await sandbox.client.end(meeting.meetingId);
};

/**
 * The token-URL flavour: an SDK app of another organisation than the meetings' (allowed to join them),
 * stored as a second team's SDK credentials; the user whose OBF tokens the token URL hands out, minted by
 * the sandbox for the meeting its path names. The first team keeps the plain joins.
 */
const tokenUrlTeam = async (sandbox: RunningSandbox, t: TestService, tokens: TokenServer): Promise<Bench['vc']> => {
  const app = await sandbox.client.createVcApp({ name: 'Bench Notetaker', organisation: 'bench-vendor', external: true });
  const user = await sandbox.client.createVcUser({ name: 'Speaker', organisation: HOST_ORG });
  tokens.answer = async (res, url) => {
    const meetingId = url.pathname.split('/')[2] ?? '';
    const { token } = await sandbox.client.issueVcToken({ type: 'onbehalf', user_id: user.user_id, sdk_key: app.sdk_key, meeting_id: meetingId });
    res.writeHead(200, { 'content-type': 'text/plain' }).end(token);
  };
  const team = await createTeam(t.url, { tokens: 100_000, daily_bot_cap: 100_000, rate_limit_per_second: 1000 });
  const api = apiClient(t.url, team.api_key);
  const stored = await api.post('/v2/vc-credentials', { type: 'sdk', sdk_id: app.sdk_key, sdk_secret: app.sdk_secret, name: app.name });
  if (stored.status !== 201) throw new Error(`storing the SDK credentials answered ${stored.status}: ${JSON.stringify(stored.body)}`);
  return { api, userId: user.user_id, tokens };
};

const chromiumVersion = () => {
  try {
    return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'chromium (version unknown)';
  }
};

/**
 * The signed-in flavours' accounts: a Microsoft organisation account and its tm login; an mt workspace
 * whose SSO profile (sign-in URL, certificate) is entered in the replica's Google Workspace domain, an
 * account of it and its mt login.
 */
const setUpSignIns = async (bench: Bench) => {
  const { client } = bench.sandbox;
  await client.putMicrosoftAccount({ email: 'bench@contoso.com', password: 'Bench-password-1', display_name: 'Bench Contoso' });
  const tm = (await bench.api.post('/v2/tm-workspaces', { domain: 'contoso.com' })).body.data;
  await bench.api.post('/v2/tm-logins', { email: 'bench@contoso.com', password: 'Bench-password-1', name: 'Bench', email_group: 'bench@contoso.com', workspace_id: tm.workspace_id });
  const mt = (await bench.api.post('/v2/mt-workspaces', { domain: 'example.com' })).body.data;
  await client.putGoogleDomain('example.com', { sign_in_url: mt.sso.sign_in_page_url, certificate: mt.sso.certificate });
  await client.putGoogleAccount({ email: 'bench@example.com', display_name: 'Bench Example' });
  await bench.api.post('/v2/mt-logins', { email: 'bench@example.com', name: 'Bench', email_group: 'bench@example.com', workspace_id: mt.workspace_id });
};

const main = async () => {
  const chromium = chromiumVersion();
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${chromium}, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  const sandbox = await startSandbox({ port: 0 });
  // The conveniences it needs: the sandbox's own mt pages (SANDBOX_HOSTS) and its replicas (SANDBOX_REPLICAS).
  const t = await startTestService({
    botSlots: Math.max(1, ...RAMP),
    sandboxHosts: true,
    sandboxReplicas: `127.0.0.1:${sandbox.port}`,
    allowPrivateWebhookTargets: false,
    allowPrivateStorageEndpoints: false,
  });
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-bots-'));
  const tokens = await new TokenServer().start();
  try {
    const team = await createTeam(t.url, { tokens: 100_000, daily_bot_cap: 100_000, rate_limit_per_second: 1000 });
    const bench: Bench = { sandbox, t, api: apiClient(t.url, team.api_key), downloads, vc: await tokenUrlTeam(sandbox, t, tokens) };
    await synthesizePhrases(sandbox);
    await setUpSignIns(bench);
    const latency = LATENCY_BOTS > 0 ? await benchLatency(bench) : noLatency();
    const steps = RAMP.length > 0 ? await benchRamp(bench) : [];
    printSummary(latency, steps, chromium);
    // issue 22: the browser a page sees, each mode's fingerprint and cost (a part of its own)
    await benchFingerprintModes(sandbox);
  } finally {
    await t.stop();
    await tokens.stop();
    await sandbox.stop();
    rmSync(downloads, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
