/**
 * `npm run bench:bots`: real bots (one child process and one Chromium each) in meetings of the local
 * sandbox, driven through the public API of the whole service, all on this machine:
 *
 *   1. seconds from `POST /v2/bots` to `in_call_recording`, bots one after another, where that time goes
 *      (dispatch and the process's start, Chromium, page and join, the recorder's start), and each bot's
 *      memory while it records alone: a bot started cold on the sandbox's own mt flavour (the baseline: a
 *      service without a warm pool), then, from a service with its warm pool (BENCH_POOL, default 2, the
 *      service's default), the same flavour and the replicas of Google Meet (https://meet.google.com/<code>),
 *      Microsoft Teams (its meetup-join link on teams.microsoft.com, past the AV-confirm modal) and Zoom's web
 *      client (https://zoom.us/j/<id>?pwd=…), reached through SANDBOX_REPLICAS, and Zoom's replica through the
 *      Meeting SDK with an OBF token from a token URL (a meeting of another organisation, the team's own SDK
 *      credentials signing, the token fetched by the service at join time, set beside the plain join), and
 *      signed in (issue 20) on the Teams replica (an organisation account on Microsoft's sign-in replica) and
 *      the Meet replica (Google's sign-in with SAML single sign-on to the service's own identity provider),
 *      each set beside its own anonymous join of the same run (the pooled bot signs in after it takes its
 *      job), alternating; and the memory of the pool's waiting processes (each a bot process, its Chromium,
 *      its display and its sound server);
 *   2. how many audio-only bots record at once without missing audio: a ramp of steps of N bots in N
 *      meetings, stopping at the first step where any bot loses audio, ends wrongly or records a file
 *      whose length disagrees with its own account; memory (PSS) per bot and CPU (by kind of process)
 *      while the N bots record;
 *   3. the same for speaker_view (video) bots;
 *   4. the fingerprint mode the bot runs Chromium in (headful on its own display) against new headless:
 *      the fingerprint checks each trips, and each one's CPU and memory per recording bot (fingerprint-modes.ts).
 *
 * Every figure comes from one run. Nothing here asserts a time: a slow machine gives slower figures,
 * not a failure. Sizes: BENCH_LATENCY_BOTS (10 per flavour), BENCH_RAMP (1,2,4,6,8,12,16; step 1 checks that the
 * speech detection counts the phrases of a single bot exactly), BENCH_VIDEO_RAMP (1,2,3,4,6), BENCH_MAX_BOTS
 * (16, caps the ramps), BENCH_PHRASES (6 phrases, one every 4 s), BENCH_POOL (2), BENCH_FINGERPRINT_BOTS (2; 0
 * skips part 4).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import type { CreateMeetingRequest } from '../sandbox/client';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { childProcessLauncherFor, type ChildProcessLauncher } from '../src/adapters/bot-launcher/child-process-launcher';
import { apiClient, createTeam } from '../test/support/http-client';
import { startTestService, type TestService } from '../test/support/test-service';
import { TokenServer } from '../test/support/token-server';
import { benchFingerprintModes } from './fingerprint-modes';
import {
  botProcessTrees,
  chromiumVersion,
  intFromEnv,
  loadAverage,
  machineLine,
  mb,
  messageOf,
  openMeeting as openMeetingOf,
  percentile,
  postBot,
  range,
  seconds,
  sleep,
  statusTimeMs,
  waitForEnd,
  waitForStatus,
  waitUntilNoBotRuns,
  type Api,
  type Bench,
  type Meeting,
} from './lib/bot-bench-kit';
import { CLOCK_TICKS_PER_SECOND, processTable, processTree, sumPssKb } from './lib/proc-stats';
import { benchRamp, synthesizePhrases, totalKb, type StepResult } from './lib/ramp';

const LATENCY_BOTS = intFromEnv('BENCH_LATENCY_BOTS', 10);
const MAX_BOTS = intFromEnv('BENCH_MAX_BOTS', 16);
const POOL = intFromEnv('BENCH_POOL', 2);
const rampFrom = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0 && n <= MAX_BOTS);
const RAMP = rampFrom('BENCH_RAMP', '1,2,4,6,8,12,16');
const VIDEO_RAMP = rampFrom('BENCH_VIDEO_RAMP', '1,2,3,4,6');
/** a recording bot settles this long before its memory is sampled in part 1 */
const SETTLE_MS = 3000;

/** Where part 1's bots join, and how they start: cold (no warm pool: the baseline) or from the warm pool. */
const BASELINE = 'sandbox mt, cold';
const PLAIN_ZOOM = 'Zoom replica';
const TOKEN_URL_ZOOM = 'Zoom replica, token URL';
const FLAVOURS = [BASELINE, 'sandbox mt', 'Meet replica', 'Teams replica', PLAIN_ZOOM, TOKEN_URL_ZOOM, 'Teams replica, signed in', 'Meet replica, signed in'] as const;
/** the organisation of the token-URL flavour's meetings: the team's SDK app is of another one, so it needs the OBF token */
const HOST_ORG = 'bench-host-org';
type Flavour = (typeof FLAVOURS)[number];
/** Each flavour's meeting: no lobby, so the bot records as soon as it is in. */
const MEETINGS: Record<Flavour, CreateMeetingRequest> = {
  'sandbox mt, cold': { platform: 'mt', lobby: false },
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

/** The token-URL flavour: a team whose stored SDK credentials sign its joins, the OBF token's user, the token URL. */
interface TokenUrlTeam {
  readonly api: Api;
  readonly userId: string;
  readonly tokens: TokenServer;
}

/** The service bots are measured on, and the launcher it starts them with (for its warm pool). */
interface Service {
  readonly bench: Bench;
  readonly launcher: ChildProcessLauncher;
  /** the warm service only: the token-URL flavour's team */
  readonly vc: TokenUrlTeam | null;
}

interface Services {
  /** with the warm pool */
  readonly warm: Service;
  /** without: every bot starts its process and Chromium after its job */
  readonly cold: Service;
}

const serviceOf = (services: Services, flavour: Flavour): Service => (flavour === BASELINE ? services.cold : services.warm);

/**
 * A meeting of the flavour without a lobby (the bot records as soon as it is in) with one simulated
 * participant; the token-URL flavour's is the OBF token's user: the bot gets in only while they are there.
 */
const openMeeting = (sandbox: RunningSandbox, flavour: Flavour, vc: TokenUrlTeam | null): Promise<Meeting> =>
  openMeetingOf(sandbox, MEETINGS[flavour], flavour === TOKEN_URL_ZOOM ? (vc?.userId ?? null) : null);

/** Waits until the pool has refilled after the previous bot and every waiting process has its Chromium up. */
const poolReady = async (service: Service, size: number) => {
  const deadline = Date.now() + 60_000;
  while (service.launcher.warmReadyCount < size && Date.now() < deadline) await sleep(100);
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
  /** CPU time its process tree had used when it was first seen recording (a warm bot's includes its warm-up) */
  readonly startCpuSeconds: number;
}

const oneLatencySample = async (services: Services, flavour: Flavour): Promise<LatencySample> => {
  const service = serviceOf(services, flavour);
  const bench = service.bench;
  if (service === services.warm) await poolReady(service, POOL);
  const meeting = await openMeeting(bench.sandbox, flavour, service.vc);
  const vc = flavour === TOKEN_URL_ZOOM ? service.vc : null;
  const api = vc?.api ?? bench.api;
  const extra = vc ? { vc_config: { obf_token_url: vc.tokens.url(`/obf/${meeting.meetingId}`) } } : (SIGN_IN[flavour]?.body ?? {});
  const { botId, postedAt } = await postBot(api, meeting, 'audio_only', extra);
  try {
    const { bot, seenAt } = await waitForStatus(api, botId, 'in_call_recording', 100);
    const [atRecording] = await botProcessTrees(bench, [botId]);
    const startCpuSeconds = atRecording!.reduce((sum, p) => sum + p.cpuTicks, 0) / CLOCK_TICKS_PER_SECOND;
    await sleep(SETTLE_MS);
    const [tree] = await botProcessTrees(bench, [botId]);
    const pss = await sumPssKb(tree!.map((p) => p.pid));
    const at = (status: string) => statusTimeMs(bot, status) / 1000;
    return {
      pssKb: pss,
      startCpuSeconds,
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
  console.log(
    `     PSS of the recording bot (node + Chromium, alone): p50 ${mb(percentile(samples.map((s) => s.pssKb), 50))}; CPU its processes used to get there: p50 ${seconds(percentile(samples.map((s) => s.startCpuSeconds), 50))}`,
  );
};

type LatencyByFlavour = Record<Flavour, LatencySample[]>;
const noLatency = (): LatencyByFlavour => Object.fromEntries(FLAVOURS.map((f) => [f, []])) as unknown as LatencyByFlavour;

const benchLatency = async (services: Services): Promise<LatencyByFlavour> => {
  console.log(`\n1. POST /v2/bots -> in_call_recording: ${LATENCY_BOTS} bots per flavour ONE AFTER ANOTHER, flavours alternating (each leaves once recording and its process exits before the next POST)`);
  console.log(`   meeting without lobby, one simulated participant present, audio_only; ${BASELINE} (baseline: no warm pool) vs, from a pool of ${POOL}, ${FLAVOURS.slice(1).join(', ')}; memory sampled ${SETTLE_MS / 1000} s after recording starts; load average ${loadAverage()}`);
  const samples = noLatency();
  const failures: string[] = [];
  for (const i of range(LATENCY_BOTS)) {
    for (const flavour of FLAVOURS) {
      try {
        samples[flavour].push(await oneLatencySample(services, flavour));
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
  console.log(`   (nearest-rank percentiles: p95 of 10 is the slowest; load average ${loadAverage()} at the end)`);
  failures.forEach((f) => console.log(`   failed: ${f}`));
  return samples;
};

// ---------------------------------------------------------------------------------------------------
// The pool's own cost

/** PSS of the pool's waiting processes (each a bot process and its idle Chromium), once all are ready. */
const poolMemoryKb = async (service: Service): Promise<number> => {
  await poolReady(service, POOL);
  await sleep(SETTLE_MS);
  const table = await processTable();
  return sumPssKb(service.launcher.warmPids.flatMap((pid) => processTree(pid, table).map((p) => p.pid)));
};

// ---------------------------------------------------------------------------------------------------

const rampSummary = (label: string, steps: readonly StepResult[]) => {
  if (steps.length === 0) return; // its ramp was not asked for (BENCH_RAMP or BENCH_VIDEO_RAMP empty)
  const passed = steps.filter((s) => s.pass);
  const best = passed[passed.length - 1];
  const failed = steps.find((s) => !s.pass);
  const ramp = `ramp ${steps.map((s) => s.n).join(', ')}`;
  if (!best?.window) return console.log(`- ${label} bots recording at once without missing audio: no step passed (${ramp})`);
  const after = failed ? `; ${failed.n} failed with ${failed.reasons.length} failing bot(s), first ${failed.reasons[0] ?? ''}` : `; the largest step tried`;
  console.log(`- ${label} bots recording at once without missing audio: ${best.n} (${ramp}${after})`);
  const bots = totalKb(best.window.memory);
  console.log(
    `- at ${best.n} ${label} bots: PSS ${mb(bots / best.n)} per bot (${mb(bots)} for all bot processes; service + sandbox process ${mb(best.window.memory.selfPssKb)}), CPU busy ${best.window.cpuBusyPercent.toFixed(0)} % of the machine while recording, load average ${best.load.atStart} at the step's start and ${best.load.atEnd} at its end` +
      ` (the bots' own processes ${((100 * best.window.botsCpuCores) / best.n).toFixed(0)} % of a core per bot)`,
  );
};

const printSummary = (latency: LatencyByFlavour, poolKb: number, audio: readonly StepResult[], video: readonly StepResult[], chromium: string) => {
  const date = new Date().toISOString().slice(0, 10);
  console.log(`\n--- summary for docs/performance.md ---`);
  console.log(`Bots on this machine (\`npm run bench:bots\`, ${date}; ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${chromium}, node ${process.version}; load average ${loadAverage()} at the end):`);
  for (const flavour of FLAVOURS) {
    const samples = latency[flavour];
    if (samples.length === 0) continue;
    const own = samples.map((s) => s.ownSeconds);
    const wall = samples.map((s) => s.wallSeconds);
    const p50 = (pick: (s: LatencySample) => number) => seconds(percentile(samples.map(pick), 50));
    console.log(
      `- ${flavour}: POST /v2/bots -> in_call_recording (${samples.length} bots one after another, bot's own timestamps): p50 ${seconds(percentile(own, 50))}, p95 ${seconds(percentile(own, 95))}` +
        ` (wall clock p50 ${seconds(percentile(wall, 50))}, p95 ${seconds(percentile(wall, 95))}); parts p50: ${p50((s) => s.toJoiningCall)} dispatch and process start, ${p50((s) => s.toInCall)} Chromium/page/join, ${p50((s) => s.toRecording)} recorder start;` +
        ` PSS of one recording bot p50 ${mb(percentile(samples.map((s) => s.pssKb), 50))}; CPU used to get there p50 ${seconds(percentile(samples.map((s) => s.startCpuSeconds), 50))}`,
    );
  }
  if (POOL > 0) console.log(`- warm pool of ${POOL}: ${mb(poolKb)} PSS while waiting (${mb(poolKb / POOL)} per waiting bot process with its Chromium, display and sound server)`);
  rampSummary('audio-only', audio);
  rampSummary('speaker_view', video);
};

/**
 * The token-URL flavour: an SDK app of another organisation than the meetings' (allowed to join them),
 * stored as a second team's SDK credentials; the user whose OBF tokens the token URL hands out, minted by
 * the sandbox for the meeting its path names. The first team keeps the plain joins.
 */
const tokenUrlTeam = async (sandbox: RunningSandbox, t: TestService, tokens: TokenServer): Promise<TokenUrlTeam> => {
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

/**
 * A service for the bench: SANDBOX_HOSTS and SANDBOX_REPLICAS (the conveniences it needs), its launcher built
 * here to see its pool; `tokens`: it also gets the token-URL flavour's team.
 */
const startService = async (sandbox: RunningSandbox, downloads: string, slots: number, pool: number, tokens: TokenServer | null): Promise<Service> => {
  const sandboxReplicas = `127.0.0.1:${sandbox.port}`;
  const launcher = childProcessLauncherFor(bunyan.createLogger({ name: 'bench', level: 'fatal' }), { sandboxReplicas, botPoolSize: pool }, slots);
  const t = await startTestService({
    botSlots: slots,
    sandboxHosts: true,
    sandboxReplicas,
    // the token-URL flavour's token URL is a plain-http server on this machine, which only this switch lets
    // the service call (without it every such bot is refused: "must be an https URL"); the other flavours
    // make no call it governs
    allowPrivateWebhookTargets: tokens !== null,
    allowPrivateStorageEndpoints: false,
    overrides: { launcher },
  });
  const team = await createTeam(t.url, { tokens: 100_000, daily_bot_cap: 100_000, rate_limit_per_second: 1000 });
  return { bench: { sandbox, t, api: apiClient(t.url, team.api_key), downloads }, launcher, vc: tokens ? await tokenUrlTeam(sandbox, t, tokens) : null };
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
  console.log(machineLine(chromium));
  const sandbox = await startSandbox({ port: 0 });
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'mbs-bench-bots-'));
  const started: Service[] = [];
  const tokens = await new TokenServer().start();
  try {
    const warm = await startService(sandbox, downloads, Math.max(1, ...RAMP, ...VIDEO_RAMP), POOL, tokens);
    started.push(warm);
    const cold = await startService(sandbox, downloads, 1, 0, null);
    started.push(cold);
    await synthesizePhrases(sandbox);
    await setUpSignIns(warm.bench);
    const poolKb = POOL > 0 ? await poolMemoryKb(warm) : 0;
    if (POOL > 0) console.log(`\nwarm pool of ${POOL}: ${mb(poolKb)} PSS while waiting (${mb(poolKb / POOL)} per waiting bot process with its Chromium, display and sound server)`);
    const latency = LATENCY_BOTS > 0 ? await benchLatency({ warm, cold }) : noLatency();
    const audio = RAMP.length > 0 ? await benchRamp(warm.bench, '2. bots per core', RAMP, 'audio_only') : [];
    const video = VIDEO_RAMP.length > 0 ? await benchRamp(warm.bench, '3. video bots', VIDEO_RAMP, 'speaker_view') : [];
    printSummary(latency, poolKb, audio, video, chromium);
    // issue 22: the browser a page sees, each mode's fingerprint and cost (a part of its own, without the services' bots)
    for (const s of started.splice(0)) await s.bench.t.stop();
    await benchFingerprintModes(sandbox);
  } finally {
    for (const s of started) await s.bench.t.stop();
    await tokens.stop();
    await sandbox.stop();
    rmSync(downloads, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
