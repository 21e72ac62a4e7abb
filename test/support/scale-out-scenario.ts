/**
 * The scale-out run (test/e2e/scale-out.spec.ts): a dozen bots on two api instances and two workers behind
 * a load balancer, the api instance holding the webhook lease and one worker with its bots SIGKILLed
 * mid-run, chat and leave through the load balancer before and after. It drives the run and collects what
 * happened (the log, the database's own record of every lease and checkpoint write, what the receivers
 * got, what the API answered); the spec asserts on those facts.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { RecordedEvent } from '../../src/adapters/event-store/port';
import { openReadStore } from '../../src/adapters/read-store';
import type { ControlMeetingView } from '../../sandbox/meeting-views';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { PROJECTIONS_CHECKPOINT } from '../../src/subscribers/projection-runner';
import { checkpointWrites, installLeaseAudit, leaseWrites, type CheckpointWrite, type LeaseWrite } from './lease-audit';
import { adminClient, apiClient } from './http-client';
import { freshPostgresDatabase } from './postgres';
import { readLog } from './read-log';
import { bucketName, sharedRadosgw } from './radosgw';
import { sharedFerretdb } from './ferretdb';
import { Cluster } from './scale-out-cluster';
import type { ServiceProcess } from './service-process';
import { WebhookReceiver } from './webhook-receiver';
import type { ScriptedWord } from '../fakes/transcription/fake-provider-kit';
import { GladiaFake } from '../fakes/transcription/gladia-fake';

export const LEASE_TTL_SECONDS = 3;

export interface ScaleOutOptions {
  /** read models in MongoDB (FerretDB) rather than each instance's memory */
  readonly mongo: boolean;
  /**
   * bots created to join at once, and bots scheduled a few seconds ahead: on vc and tm scripted stand-ins
   * (SCRIPTED_BOTS), on mt real Chromium bots in meetings of a local sandbox's Meet replica
   */
  readonly botsNow: number;
  readonly scheduledBots: number;
}

export type BotKind = 'now' | 'scheduled';

export interface ScaleOutBot {
  readonly id: string;
  readonly kind: BotKind;
  readonly name: string;
  /** scheduled bots: their join_at */
  readonly joinAt?: string;
  /** the one bot with transcription (Gladia's fake), which leaves before the kill */
  readonly transcribed?: boolean;
  /** an mt bot: the real bot-runtime in Chromium, in this meeting of the sandbox's Meet replica */
  readonly sandboxMeetingId?: string;
}

/** What the transcription provider (Gladia's fake) saw of the transcribed bot's request. */
export interface ProviderJobs {
  /** the jobs created (POST /v2/pre-recorded), by id */
  readonly created: readonly string[];
  /** looks at each job (GET /v2/pre-recorded/{id}) before the kill, and after */
  readonly looksBeforeKill: readonly string[];
  readonly looksAfterKill: readonly string[];
}

export interface ApiAnswer {
  readonly botId: string;
  readonly phase: 'before' | 'after';
  readonly status: number;
  readonly body: unknown;
  readonly message?: string;
}

export interface ReadAcross {
  readonly botId: string;
  readonly writtenOn: string;
  readonly readOn: string;
  readonly status: number;
  readonly name: unknown;
}

/** A burst of POSTs of one team, spread over both api instances, against its rate limit. */
export interface RateProbe {
  /** the team's rate_limit_per_second: what one window of a second allows */
  readonly perSecond: number;
  readonly answers: readonly { readonly instance: string; readonly status: number; readonly sentAtMs: number; readonly answeredAtMs: number }[];
}

export interface Sample {
  readonly atMs: number;
  readonly checkpoints: ReadonlyMap<string, bigint>;
  readonly leases: ReadonlyMap<string, { readonly owner: string; readonly epoch: number }>;
  /** with MongoDB: the shared read models' checkpoint */
  readonly projections: bigint | null;
}

export interface ScaleOutRun {
  readonly bots: readonly ScaleOutBot[];
  readonly teamId: string;
  readonly endpoints: readonly { readonly id: string; readonly receiver: WebhookReceiver }[];
  readonly readsAcross: readonly ReadAcross[];
  readonly chats: readonly ApiAnswer[];
  readonly leaves: readonly ApiAnswer[];
  /** the instances killed: the api holding `webhook-delivery` then (its lease owner) and a worker */
  readonly killed: { readonly api: string; readonly apiOwner: string; readonly worker: string; readonly processes: number };
  /** bots asked to leave before the kill */
  readonly leftBefore: ReadonlySet<string>;
  /** requests the receiver held unanswered at the kill (sent by the killed api instance) */
  readonly hangingAtKill: number;
  readonly log: readonly RecordedEvent[];
  readonly leaseWrites: readonly LeaseWrite[];
  readonly checkpointWrites: readonly CheckpointWrite[];
  readonly samples: readonly Sample[];
  /** each bot as the API shows it at the end, through the load balancer */
  readonly finalViews: ReadonlyMap<string, any>;
  /** the chat_messages.json each bot stored, downloaded through its link */
  readonly posted: ReadonlyMap<string, readonly string[]>;
  /** the Chromium bots' meetings as the sandbox saw them at the end, by bot id */
  readonly sandboxMeetings: ReadonlyMap<string, ControlMeetingView>;
  readonly rateProbe: RateProbe;
  readonly providerJobs: ProviderJobs;
  readonly ttlMs: number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for a condition, bounded: a condition that never comes fails with what was awaited and what was last seen. */
export const waitUntil = async <T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number, everyMs = 250): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; last seen: ${JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? String(v) : v))?.slice(0, 2000)}`);
    await sleep(everyMs);
  }
};

const ENDED = new Set(['completed', 'failed']);

/** Starts sampling the shared tables every `everyMs` until stopped. */
const startSampling = (databaseUrl: string, mongo: { url: string; database: string } | null, everyMs: number) => {
  const samples: Sample[] = [];
  let stopped = false;
  const loop = (async () => {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: databaseUrl });
    await client.connect();
    const readStore = mongo ? await openReadStore({ mongoUrl: mongo.url, mongoDatabase: mongo.database, sqlitePath: 'unused with MongoDB' }) : null;
    try {
      while (!stopped) {
        const checkpoints = await client.query<{ name: string; position: string }>('SELECT name, position FROM checkpoints');
        const leases = await client.query<{ name: string; owner: string; epoch: string }>('SELECT name, owner, epoch FROM leases WHERE owner IS NOT NULL AND expires_at > now()');
        samples.push({
          atMs: Date.now(),
          checkpoints: new Map(checkpoints.rows.map((r) => [r.name, BigInt(r.position)])),
          leases: new Map(leases.rows.map((r) => [r.name, { owner: r.owner, epoch: Number(r.epoch) }])),
          projections: readStore ? await readStore.loadCheckpoint(PROJECTIONS_CHECKPOINT) : null,
        });
        await sleep(everyMs);
      }
    } finally {
      await client.end();
      await readStore?.close();
    }
  })();
  return {
    samples,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
};

export const runScaleOut = async (options: ScaleOutOptions): Promise<ScaleOutRun> => {
  const databaseUrl = await freshPostgresDatabase('scale_out');
  await installLeaseAudit(databaseUrl);
  const mongo = options.mongo ? { url: (await sharedFerretdb()).url, database: (await sharedFerretdb()).databaseName('scale_out') } : null;
  const receivers = [await new WebhookReceiver().start(), await new WebhookReceiver().start()];
  const gladia = await new GladiaFake(GLADIA_KEY).start();
  gladia.setScript({ words: HEARD, pendingLooks: 0 });
  const sandbox = await startSandbox({ port: 0 });
  const dropMongo = async () => {
    if (!mongo) return;
    const client = new MongoClient(mongo.url);
    await client.db(mongo.database).dropDatabase().finally(() => client.close());
  };
  const stopAround = async () => {
    for (const r of receivers) await r.stop();
    await gladia.stop();
    await sandbox.stop();
    await dropMongo();
  };
  const cluster = await Cluster.start({
    databaseUrl,
    ...(mongo ? { mongo } : {}),
    objectStoreUrl: await sharedBucket(),
    apis: 2,
    workers: 2,
    botSlots: 12,
    leaseTtlSeconds: LEASE_TTL_SECONDS,
    // The mt bots are the real bot-runtime in Chromium: they reach the sandbox's Meet replica under the
    // real host (SANDBOX_REPLICAS); no warm pool, to keep the memory of two workers low.
    scriptedBots: 'vc,tm',
    env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: '1', GLADIA_API_URL: gladia.url, SANDBOX_REPLICAS: `127.0.0.1:${sandbox.port}`, BOT_POOL_SIZE: '0' },
  }).catch(async (error: unknown) => {
    await stopAround();
    throw error;
  });
  const sampling = startSampling(databaseUrl, mongo, 200);
  const stop = async () => {
    await sampling.stop().catch(() => undefined);
    await cluster.stop();
    await stopAround();
  };
  try {
    return await drive({ options, databaseUrl, receivers, gladia, sandbox, cluster, sampling, stop });
  } catch (error) {
    // What each process said, for whoever reads the failure (the processes log warnings and errors only).
    for (const p of [...cluster.apis, ...cluster.workers]) process.stderr.write(`--- ${cluster.idOf(p)}\n${p.logText().slice(-6000)}\n`);
    await stop();
    throw error;
  }
};

/** A bucket of its own on the S3 server the tests share, as OBJECT_STORE_URL. */
const sharedBucket = async (): Promise<string> => {
  const gw = await sharedRadosgw();
  const keys = await gw.createUser('scale-out');
  const bucket = bucketName('scale-out');
  await gw.client(keys).makeBucket(bucket);
  return `s3+http://${encodeURIComponent(keys.accessKey)}:${encodeURIComponent(keys.secretKey)}@${gw.host}:${gw.port}/${bucket}?force_path_style=true`;
};

/**
 * A burst of POSTs of a team limited to one a second, sent to both api instances at once (alternating),
 * each timed by the test's clock. A POST to leave a bot that does not exist costs nothing but is counted.
 */
const probeRateLimit = async (lb: string, instances: readonly ServiceProcess[], cluster: Cluster): Promise<RateProbe> => {
  const perSecond = 1;
  const team = (await adminClient(lb).post('/admin/teams', { name: 'rate-limited', tokens: 0, rate_limit_per_second: perSecond })).body.data as { api_key: string };
  const answers = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const instance = instances[i % instances.length]!;
      const sentAtMs = Date.now();
      const answer = await apiClient(instance.url, team.api_key).post(`/v2/bots/${randomUUID()}/leave`);
      return { instance: cluster.idOf(instance), status: answer.status, sentAtMs, answeredAtMs: Date.now() };
    }),
  );
  return { perSecond, answers };
};

const GLADIA_KEY = 'scale-out-gladia-key';
/** What Gladia's fake "hears" in every recording. */
const HEARD: ScriptedWord[] = [
  { word: 'Hello', start: 0.1, end: 0.4, speaker: 0 },
  { word: 'everyone.', start: 0.45, end: 0.9, speaker: 0 },
];
const jobsCreated = (gladia: GladiaFake): string[] => gladia.answers.filter((a) => a.url === '/v2/pre-recorded' && a.status === 201).map((a) => (a.body as { id: string }).id);
const jobLooks = (gladia: GladiaFake): string[] =>
  gladia.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/v2/pre-recorded/')).map((r) => decodeURIComponent(r.url.slice('/v2/pre-recorded/'.length)));

interface Stage {
  readonly options: ScaleOutOptions;
  readonly databaseUrl: string;
  readonly receivers: readonly WebhookReceiver[];
  readonly gladia: GladiaFake;
  readonly sandbox: RunningSandbox;
  readonly cluster: Cluster;
  readonly sampling: ReturnType<typeof startSampling>;
  readonly stop: () => Promise<void>;
}

const drive = async ({ options, databaseUrl, receivers, gladia, sandbox, cluster, sampling, stop }: Stage): Promise<ScaleOutRun> => {
  const lb = cluster.proxy.url;
  const [api1, api2] = cluster.apis as [ServiceProcess, ServiceProcess];
  const team = (await adminClient(lb).post('/admin/teams', { name: 'scale-out', tokens: 1000, rate_limit_per_second: 1000 })).body.data as { team_id: string; api_key: string };
  const viaLb = apiClient(lb, team.api_key);
  const on = (instance: ServiceProcess) => apiClient(instance.url, team.api_key);
  const endpoints = [];
  for (const receiver of receivers) {
    const added = await viaLb.post('/v2/webhooks', { url: receiver.url });
    if (added.status !== 201) throw new Error(`webhook endpoint: ${JSON.stringify(added.body)}`);
    endpoints.push({ id: added.body.data.webhook_id as string, receiver });
  }

  // Each bot is created directly on one api instance and read at once through the other.
  const bots: ScaleOutBot[] = [];
  const readsAcross: ReadAcross[] = [];
  const create = async (kind: BotKind, path: string, body: Record<string, unknown>, extra: Partial<ScaleOutBot> = {}) => {
    const [writer, reader] = bots.length % 2 === 0 ? [api1, api2] : [api2, api1];
    const created = await on(writer).post(path, body);
    if (created.status !== 201) throw new Error(`${path}: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.data.bot_id as string;
    const read = await on(reader).get(`/v2/bots/${id}`);
    readsAcross.push({ botId: id, writtenOn: cluster.idOf(writer), readOn: cluster.idOf(reader), status: read.status, name: read.body?.data?.bot_name });
    bots.push({ id, kind, name: body.bot_name as string, ...extra });
  };
  // Bots on the three platforms, each in a meeting of its own: scripted stand-ins on vc and tm
  // (SCRIPTED_BOTS), Chromium bots on mt, in a Meet replica's meeting without a lobby, with someone in it.
  const meetingOf = async (i: number): Promise<{ readonly url: string; readonly sandboxMeetingId?: string }> => {
    if (i % 3 === 0) return { url: `https://zoom.us/j/${9_100_000_000 + i}` };
    if (i % 3 === 1) return { url: `https://teams.microsoft.com/l/meetup-join/scale-out-${i}` };
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', replica: 'meet', lobby: false });
    await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    return { url: meeting.url, sandboxMeetingId: meeting.meeting_id };
  };
  // The first bot is transcribed (Gladia's fake, which fetches its recording from the bucket).
  const transcription = { transcription_enabled: true, transcription_config: { provider: 'gladia', api_key: GLADIA_KEY } };
  for (let i = 0; i < options.botsNow; i++) {
    const transcribed = i === 0;
    const { url, sandboxMeetingId } = await meetingOf(i);
    await create('now', '/v2/bots', { meeting_url: url, bot_name: `Now ${i}`, ...(transcribed ? transcription : {}) }, { ...(transcribed ? { transcribed } : {}), ...(sandboxMeetingId ? { sandboxMeetingId } : {}) });
  }
  const rateProbe = await probeRateLimit(lb, [api1, api2], cluster);
  const firstJoinMs = Date.now() + 15_000;
  for (let i = 0; i < options.scheduledBots; i++) {
    const joinAt = new Date(firstJoinMs + 2_000 * i).toISOString();
    const { url, sandboxMeetingId } = await meetingOf(100 + i);
    await create('scheduled', '/v2/bots/scheduled', { meeting_url: url, bot_name: `Scheduled ${i}`, join_at: joinAt }, { joinAt, ...(sandboxMeetingId ? { sandboxMeetingId } : {}) });
  }

  const statusOf = async (id: string): Promise<string> => {
    const read = await viaLb.get(`/v2/bots/${id}`);
    return read.status === 200 ? (read.body.data.status as string) : `HTTP ${read.status} ${JSON.stringify(read.body)}`;
  };
  const statusesOf = (ids: readonly string[]) => Promise.all(ids.map(statusOf));
  const immediate = bots.filter((b) => b.kind === 'now');
  await waitUntil('every bot created now to record', () => statusesOf(immediate.map((b) => b.id)), (s) => s.every((x) => x === 'in_call_recording'), 240_000, 500);

  const chats: ApiAnswer[] = [];
  const leaves: ApiAnswer[] = [];
  const chat = async (bot: ScaleOutBot, phase: ApiAnswer['phase']) => {
    const message = `${phase} the kill, to ${bot.name}`;
    const answer = await viaLb.post(`/v2/bots/${bot.id}/send-chat-message`, { message });
    chats.push({ botId: bot.id, phase, status: answer.status, body: answer.body, message });
  };
  const leave = async (bot: ScaleOutBot, phase: ApiAnswer['phase']) => {
    const answer = await viaLb.post(`/v2/bots/${bot.id}/leave`);
    leaves.push({ botId: bot.id, phase, status: answer.status, body: answer.body });
  };
  await Promise.all(immediate.map((b) => chat(b, 'before')));

  // Where each bot runs, as the log says.
  const workerOf = async (): Promise<Map<string, string>> => {
    const log = await readLog(databaseUrl);
    return new Map(log.filter((e) => e.type === 'BotDispatched').map((e) => [e.data.bot_id as string, e.data.worker_id as string]));
  };
  const placed = await workerOf();
  const count = (worker: string) => immediate.filter((b) => placed.get(b.id) === worker).length;
  const doomed = count('worker-1') >= count('worker-2') ? cluster.workers[0]! : cluster.workers[1]!;
  const doomedId = cluster.idOf(doomed);
  const survivorId = doomedId === 'worker-1' ? 'worker-2' : 'worker-1';
  // Before the kill two bots leave: the transcribed one (its job is held working at the provider) and one
  // more (elsewhere, unless the doomed worker runs them all), whose webhooks hang at the first receiver
  // (the transcribed bot's bot.completed waits for its transcript).
  const runningOn = (worker: string) => immediate.filter((b) => placed.get(b.id) === worker && !b.transcribed);
  const transcribed = immediate.find((b) => b.transcribed)!;
  const leavingBefore = [transcribed, runningOn(survivorId)[0] ?? runningOn(doomedId)[0]!];
  const leftBefore = new Set(leavingBefore.map((b) => b.id));

  const [hanging] = receivers as [WebhookReceiver, WebhookReceiver];
  hanging.answerWith(() => 'hang');
  gladia.holdJobs = true;
  await Promise.all(leavingBefore.map((b) => leave(b, 'before')));
  await waitUntil('the bots asked to leave before the kill to end', () => statusesOf([...leftBefore]), (s) => s.every((x) => ENDED.has(x)), 120_000);
  await waitUntil('a delivery to hang at the first receiver', async () => hanging.hangingCount, (n) => n > 0, 60_000, 100);
  await waitUntil('the transcription job to be looked at, working', async () => jobLooks(gladia).length, (n) => n > 0, 60_000, 100);
  const holder = await cluster.holderOf('webhook-delivery');
  if (!holder) throw new Error('nobody holds webhook-delivery');
  const hangingAtKill = hanging.hangingCount;

  // The kill: the sender of those deliveries, and a worker with its bots, as a lost machine would go.
  await holder.api.killWithItsProcesses();
  const killedProcesses = (await doomed.killWithItsProcesses()).length;
  const looksBeforeKill = jobLooks(gladia);
  hanging.answerWith(() => 200);
  gladia.holdJobs = false;

  const onDoomed = (id: string) => placed.get(id) === doomedId;
  await waitUntil(
    "the killed worker's bots to end",
    () => statusesOf(immediate.filter((b) => onDoomed(b.id) && !leftBefore.has(b.id)).map((b) => b.id)),
    (s) => s.every((x) => ENDED.has(x)),
    120_000,
  );
  // Scheduled bots: queued at their time (before or after the kill), dispatched, recording or ended.
  const scheduled = bots.filter((b) => b.kind === 'scheduled');
  await waitUntil('every scheduled bot to record (or end, if the kill took it)', () => statusesOf(scheduled.map((b) => b.id)), (s) => s.every((x) => x === 'in_call_recording' || ENDED.has(x)), 120_000, 500);

  const running = [];
  for (const bot of bots) if ((await statusOf(bot.id)) === 'in_call_recording') running.push(bot);
  await Promise.all(running.map((b) => chat(b, 'after')));
  await Promise.all(running.map((b) => leave(b, 'after')));
  await waitUntil('every bot to end', () => statusesOf(bots.map((b) => b.id)), (s) => s.every((x) => ENDED.has(x)), 120_000, 500);

  // Settled and delivered: every bot charged or released, every queued message delivered (the hung
  // attempts are sent again once their claims expire).
  const settled = (log: readonly RecordedEvent[]) => new Set(log.filter((e) => e.type === 'TokensCharged' || e.type === 'TokensReleased').map((e) => e.data.bot_id as string));
  const undelivered = (log: readonly RecordedEvent[]) => {
    const delivered = new Set(log.filter((e) => e.type === 'WebhookDelivered').map((e) => `${e.streamName} ${e.data.message_id}`));
    return log.filter((e) => e.type === 'WebhookMessageQueued' && !delivered.has(`${e.streamName} ${e.data.message_id}`)).length;
  };
  const transcribedEnd = (log: readonly RecordedEvent[]) => log.some((e) => e.streamName === `bot-${transcribed.id}` && (e.type === 'TranscriptionCompleted' || e.type === 'TranscriptionFailed'));
  await waitUntil(
    'every bot settled, the transcription ended and every webhook delivered',
    () => readLog(databaseUrl),
    (log) => bots.every((b) => settled(log).has(b.id)) && transcribedEnd(log) && undelivered(log) === 0,
    120_000,
    500,
  );

  const finalViews = new Map<string, any>();
  for (const bot of bots) finalViews.set(bot.id, (await viaLb.get(`/v2/bots/${bot.id}`)).body.data);
  const posted = new Map<string, readonly string[]>();
  for (const bot of bots) {
    const link = (finalViews.get(bot.id).artifacts as { artifact_type: string; url: string }[]).find((a) => a.artifact_type === 'chat_messages');
    if (!link) continue;
    const downloaded = await fetch(link.url);
    if (!downloaded.ok) throw new Error(`${bot.name}: chat_messages.json answered ${downloaded.status}`);
    posted.set(bot.id, ((await downloaded.json()) as { text: string }[]).map((m) => m.text));
  }
  const sandboxMeetings = new Map<string, ControlMeetingView>();
  for (const bot of bots) if (bot.sandboxMeetingId) sandboxMeetings.set(bot.id, await sandbox.client.getMeeting(bot.sandboxMeetingId));
  await sampling.stop();

  return {
    bots,
    teamId: team.team_id,
    endpoints,
    readsAcross,
    chats,
    leaves,
    killed: { api: cluster.idOf(holder.api), apiOwner: holder.owner, worker: doomedId, processes: killedProcesses },
    leftBefore,
    hangingAtKill,
    log: await readLog(databaseUrl),
    leaseWrites: await leaseWrites(databaseUrl),
    checkpointWrites: await checkpointWrites(databaseUrl),
    samples: sampling.samples,
    finalViews,
    posted,
    sandboxMeetings,
    rateProbe,
    providerJobs: { created: jobsCreated(gladia), looksBeforeKill, looksAfterKill: jobLooks(gladia).slice(looksBeforeKill.length) },
    ttlMs: LEASE_TTL_SECONDS * 1000,
    stop,
  };
};

