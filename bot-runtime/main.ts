/**
 * The bot process.
 * - Started by the service (BOT_JOB_ON_STDIN=1): the job, the service's address and the bot's token on
 *   standard input (a BotLaunch), never in the environment; reports, control and (UploadTarget http) artifacts go through the service's internal
 *   bot API. SIGTERM/SIGINT end the run with error code SIGTERM after storing what was recorded. The end
 *   of standard input (the service process died) does not: the bot goes on and waits for the service to
 *   come back (a restarted service takes it over); only when the service stays unreachable for
 *   BOT_SERVICE_PATIENCE_SECONDS (default 600) does it leave.
 * - Standalone: `npm run bot -- --meeting-url <url> --name <name> [--out <dir>] …`; artifacts and
 *   reports.jsonl go to the folder; SIGINT/SIGTERM make the bot leave.
 * Exit code 0 once the EndReport is sent (whatever the outcome), 1 otherwise, 2 for bad arguments.
 */
import { randomUUID } from 'node:crypto';
import { BotLog } from './bot-log';
import { replicaSettingFromEnv } from './browser/replica-routing';
import { parseCli, usage } from './cli-args';
import { SERVICE_MODE_VARIABLE, type BotJob } from '../contract/bot-contract';
import type { ControlChannel } from './control/control-channel';
import { HttpControl } from './control/http-control';
import { NoControl } from './control/no-control';
import type { EndCause } from './end-codes';
import { DEFAULT_SERVICE_PATIENCE_MS } from './http-client';
import { jobFromService } from './job-from-service';
import { ConsoleReporter } from './reporters/console-reporter';
import { HttpReporter } from './reporters/http-reporter';
import type { Reporter } from './reporters/reporter';
import { runBot, type RunOptions } from './run-bot';
import { readJobLine, whenServiceGone } from './service-pipe';
import { makeSpillUploader, makeUploader } from './uploaders/make-uploader';
import { HttpSignInService, type SignInService } from './sign-in/sign-in-service';
import type { VcJoinAnswer } from './drivers/vc-sdk/vc-sdk-driver';
import { askVcJoin } from './vc-sdk/vc-join-client';

/** A terminal's Ctrl-C reaches npm, tsx and the bot alike, and they pass it on: one press, several signals. */
const SAME_SIGNAL_WINDOW_MS = 3000;

interface Setup {
  job: BotJob;
  signIn: SignInService | null;
  reporter: Reporter;
  control: ControlChannel;
  patienceMs: number | null;
  options: Partial<RunOptions>;
  onSignal: (signal: string) => EndCause;
  /** service mode: the end of the service's pipe */
  whenServiceGone: ((onGone: () => void) => void) | null;
  /** service mode, tests only: the certificate authority the service passed */
  testCaFromService: string | null;
  /** service mode: the vc join's credentials, from the service */
  vcJoin?: () => Promise<VcJoinAnswer>;
}

/** Service mode: how long to wait for an unreachable service before giving up on it. */
const servicePatienceMs = (env: NodeJS.ProcessEnv): number => {
  const seconds = Number(env.BOT_SERVICE_PATIENCE_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_SERVICE_PATIENCE_MS;
};

const setup = async (log: BotLog, onServiceLost: () => void): Promise<Setup | null> => {
  if (process.env[SERVICE_MODE_VARIABLE] === '1') {
    const service = jobFromService(await readJobLine(process.stdin));
    if (!service.ok) {
      process.stderr.write(`${service.error}\n`);
      return null;
    }
    const target = { baseUrl: service.serviceUrl, token: service.token };
    const patienceMs = servicePatienceMs(process.env);
    return {
      job: service.job,
      signIn: new HttpSignInService(target, service.job.bot_id),
      reporter: new HttpReporter(target, service.job.bot_id, patienceMs),
      control: new HttpControl(target, service.job.bot_id, { log: (m) => log.warn(m), serviceLostAfterMs: patienceMs, onServiceLost }),
      patienceMs,
      options: {},
      onSignal: (signal) => ({ kind: 'terminated', signal }),
      whenServiceGone: (onGone) => whenServiceGone(process.stdin, onGone),
      testCaFromService: service.testCaPem,
      vcJoin: () => askVcJoin(target, service.job.bot_id),
    };
  }
  const cli = parseCli(process.argv.slice(2), randomUUID());
  if (!cli.ok) {
    process.stderr.write(`${cli.error ? `${cli.error}\n\n` : ''}${usage}\n`);
    return null;
  }
  const out = cli.job.upload.kind === 'folder' ? cli.job.upload.path : null;
  return {
    job: cli.job,
    signIn: null,
    reporter: new ConsoleReporter(out),
    control: new NoControl(),
    patienceMs: null,
    options: cli.options,
    onSignal: () => ({ kind: 'leave_requested' }),
    whenServiceGone: null,
    testCaFromService: null,
  };
};

const main = async (): Promise<number> => {
  const log = new BotLog();
  const stop = new AbortController();
  const s = await setup(log, () => {
    if (stop.signal.aborted) return;
    log.warn('the service is unreachable for good: leaving');
    stop.abort({ kind: 'terminated', signal: 'the service being gone' } satisfies EndCause);
  });
  if (!s) return 2;
  const replicas = replicaSettingFromEnv(process.env);
  if (!replicas.ok) log.warn(replicas.error);
  let firstSignalAt: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt === null) {
      firstSignalAt = Date.now();
      log.info(`${signal}: leaving`);
      stop.abort(s.onSignal(signal));
    } else if (Date.now() - firstSignalAt > SAME_SIGNAL_WINDOW_MS) {
      log.error(`${signal} again: exiting without finishing`);
      process.exit(1);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The service process died: a restarted service takes the bot over, so the meeting goes on. Its end of
  // the stderr pipe died with it: echoing the log there fails (EPIPE), which must not end the bot (its
  // log is kept for the bot.log artifact all the same).
  process.stderr.on('error', () => undefined);
  s.whenServiceGone?.(() => log.warn('the service that started this bot is gone; carrying on until it is back'));
  try {
    const end = await runBot(s.job, {
      reporter: s.reporter,
      uploader: makeUploader(s.job, s.patienceMs),
      spill: makeSpillUploader(s.job.upload, s.job.bot_id, s.patienceMs),
      control: s.control,
      log,
      stop: stop.signal,
      sandboxReplicas: replicas.ok ? replicas.address : null,
      signIn: s.signIn,
      testCaFromService: s.testCaFromService,
      options: s.options,
      ...(s.vcJoin ? { vcJoin: s.vcJoin } : {}),
    });
    if (s.job.upload.kind === 'folder') process.stderr.write(`artifacts in ${s.job.upload.path}: ${end.outcome} ${end.error_code}\n`);
    return 0;
  } catch (err) {
    log.error(`bot crashed: ${(err as Error).stack ?? err}`);
    return 1;
  }
};

void main().then((code) => process.exit(code));
