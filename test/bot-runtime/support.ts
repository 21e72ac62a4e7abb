/**
 * Test doubles of the service side of the bot contract (reporter, control channel), and helpers to
 * run a bot in-process against the sandbox and to measure its recording with ffmpeg.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { BotLog } from '../../bot-runtime/bot-log';
import type { BotJob, BotReport, ControlRequest, ControlResult, EndReport, LiveStatus, Platform, TimeoutConfig } from '../../contract/bot-contract';
import type { ControlChannel, ControlHandler } from '../../bot-runtime/control/control-channel';
import type { Reporter } from '../../bot-runtime/reporters/reporter';
import { runBot, type RunDeps, type RunOptions } from '../../bot-runtime/run-bot';
import { FolderUploader } from '../../bot-runtime/uploaders/folder-uploader';
import type { RunningSandbox } from '../../sandbox/server';

const run = promisify(execFile);

/** Collects reports in memory; lets a test wait for a status. */
export class MemoryReporter implements Reporter {
  readonly reports: BotReport[] = [];
  private waiters: (() => void)[] = [];

  async report(report: BotReport): Promise<void> {
    this.reports.push(report);
    for (const w of this.waiters.splice(0)) w();
  }

  statuses(): LiveStatus[] {
    return this.reports.flatMap((r) => (r.kind === 'status' ? [r.status] : []));
  }

  ends(): EndReport[] {
    return this.reports.filter((r): r is EndReport => r.kind === 'end');
  }

  artifactKeys(): string[] {
    return this.reports.flatMap((r) => (r.kind === 'artifact' ? [r.key] : []));
  }

  async waitFor(predicate: () => boolean, what: string, timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; reports: ${JSON.stringify(this.statuses())}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => (clearTimeout(t), resolve()));
      });
    }
  }

  waitForStatus(status: LiveStatus, timeoutMs?: number): Promise<void> {
    return this.waitFor(() => this.statuses().includes(status), `status ${status}`, timeoutMs);
  }
}

/** The service's side of the control channel, in memory. */
export class MemoryControl implements ControlChannel {
  private handler: ControlHandler | null = null;
  private n = 0;
  stopped = false;

  start(handler: ControlHandler): void {
    this.handler = handler;
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  async send(request: { kind: 'leave' } | { kind: 'chat'; message: string }): Promise<ControlResult> {
    if (!this.handler || this.stopped) throw new Error('the bot is not listening');
    return this.handler({ ...request, id: `req-${++this.n}` } as ControlRequest);
  }
}

export const smallTimeouts: TimeoutConfig = {
  waiting_room_timeout: 30,
  no_one_joined_timeout: 30,
  silence_timeout: 30,
  grace_period: 0,
  max_recording_duration: null,
};

export const testRunOptions: Partial<RunOptions> = { tickMs: 250, chunkSeconds: 2, screenshotSeconds: 2, joinTimeoutSeconds: 45 };

export interface StartedBot {
  readonly job: BotJob;
  readonly out: string;
  readonly reporter: MemoryReporter;
  readonly control: MemoryControl;
  readonly log: BotLog;
  readonly done: Promise<EndReport>;
}

export const tmpDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** Starts a bot in-process on `meetingUrl` (artifacts in a fresh folder). */
export const startBot = (
  meetingUrl: string,
  platform: Platform,
  job: Partial<BotJob> = {},
  deps: Partial<RunDeps> = {},
): StartedBot => {
  const out = tmpDir('bot-e2e-');
  const reporter = new MemoryReporter();
  const control = new MemoryControl();
  const log = new BotLog(process.env.BOT_TEST_LOG ? (l) => process.stderr.write(`    | ${l}\n`) : null);
  const fullJob: BotJob = {
    bot_id: `bot-${path.basename(out)}`,
    meeting_url: meetingUrl,
    platform,
    bot_name: 'Rec Bot',
    bot_image: [],
    entry_message: null,
    recording_mode: 'speaker_view',
    timeout_config: smallTimeouts,
    ignored_participant_names: [],
    upload: { kind: 'folder', path: out },
    trust_sandbox_certificate: true,
    // the tests' image servers and streaming receivers are on this machine
    private_addresses_allowed: true,
    ...job,
  };
  const done = runBot(fullJob, {
    reporter,
    uploader: new FolderUploader(out),
    control,
    log,
    ...deps,
    options: { ...testRunOptions, ...deps.options },
  });
  return { job: fullJob, out, reporter, control, log, done };
};

/** After a test: asks every bot still running to leave and waits for its end (a failed test must not leave a browser behind), then removes its folder. */
export const endBots = async (bots: StartedBot[]): Promise<void> => {
  for (const bot of bots.splice(0)) {
    await Promise.race([bot.control.send({ kind: 'leave' }).catch(() => undefined), sleep(100)]);
    await bot.done.catch(() => undefined);
    fs.rmSync(bot.out, { recursive: true, force: true });
  }
};

/** The bot's participant id once it is in `state`. */
export const botParticipant = async (sb: RunningSandbox, meetingId: string, state: 'lobby' | 'in_call' | 'waiting_for_host', name = 'Rec Bot') =>
  (await sb.client.waitForParticipant(meetingId, state, 45_000, name)).participant_id;

export interface MediaFacts {
  readonly duration: number;
  readonly meanDb: number;
  readonly maxDb: number;
  readonly codecs: string[];
}

/** Duration (ffprobe) and loudness (ffmpeg volumedetect) of a media file. */
export const mediaFacts = async (file: string): Promise<MediaFacts> => {
  const probe = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', file]);
  const info = JSON.parse(probe.stdout) as { format: { duration: string }; streams: { codec_name: string }[] };
  const vol = await run('ffmpeg', ['-hide_banner', '-nostdin', '-i', file, '-vn', '-af', 'volumedetect', '-f', 'null', '-']);
  const mean = /mean_volume: (-?[\d.]+|-inf) dB/.exec(vol.stderr);
  const max = /max_volume: (-?[\d.]+|-inf) dB/.exec(vol.stderr);
  const db = (m: RegExpExecArray | null) => (!m || m[1] === '-inf' ? -Infinity : Number(m[1]));
  return { duration: Number(info.format.duration), meanDb: db(mean), maxDb: db(max), codecs: info.streams.map((s) => s.codec_name) };
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A bot on a replica of `sb` (SANDBOX_REPLICAS' routing), recording audio only unless the job says otherwise. */
export const startReplicaBot = (sb: RunningSandbox, url: string, platform: Platform, job: Partial<BotJob> = {}, options: Partial<RunOptions> = {}): StartedBot =>
  startBot(url, platform, { trust_sandbox_certificate: false, recording_mode: 'audio_only', ...job }, { sandboxReplicas: { host: '127.0.0.1', port: sb.port }, options });

/** `outcome error_code` of an end report, e.g. `completed API_REQUEST`. */
export const endOutcome = (end: EndReport): string => `${end.outcome} ${end.error_code}`;
