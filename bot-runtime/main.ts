/**
 * The bot process.
 * - Started by the service (BOT_JOB_ON_STDIN=1): the job on standard input, SERVICE_URL and BOT_TOKEN in
 *   the environment; reports, control and (UploadTarget http) artifacts go through the service's internal
 *   bot API. SIGTERM/SIGINT, or the end of standard input (the service is gone), end the run with error
 *   code SIGTERM after storing what was recorded.
 * - Standalone: `npm run bot -- --meeting-url <url> --name <name> [--out <dir>] …`; artifacts and
 *   reports.jsonl go to the folder; SIGINT/SIGTERM make the bot leave.
 * Exit code 0 once the EndReport is sent (whatever the outcome), 1 otherwise, 2 for bad arguments.
 */
import { randomUUID } from 'node:crypto';
import { BotLog } from './bot-log';
import { parseCli, usage } from './cli-args';
import type { BotJob } from './contract';
import type { ControlChannel } from './control/control-channel';
import { HttpControl } from './control/http-control';
import { NoControl } from './control/no-control';
import type { EndCause } from './end-codes';
import { jobFromService } from './job-from-service';
import { ConsoleReporter } from './reporters/console-reporter';
import { HttpReporter } from './reporters/http-reporter';
import type { Reporter } from './reporters/reporter';
import { runBot, type RunOptions } from './run-bot';
import { readJobLine, SERVICE_MODE_VARIABLE, whenServiceGone } from './service-pipe';
import { makeSpillUploader, makeUploader } from './uploaders/make-uploader';

/** A terminal's Ctrl-C reaches npm, tsx and the bot alike, and they pass it on: one press, several signals. */
const SAME_SIGNAL_WINDOW_MS = 3000;

interface Setup {
  job: BotJob;
  reporter: Reporter;
  control: ControlChannel;
  options: Partial<RunOptions>;
  onSignal: (signal: string) => EndCause;
  /** service mode: the end of the service's pipe */
  whenServiceGone: ((onGone: () => void) => void) | null;
}

const setup = async (log: BotLog): Promise<Setup | null> => {
  if (process.env[SERVICE_MODE_VARIABLE] === '1') {
    const service = jobFromService(await readJobLine(process.stdin), process.env);
    if (!service.ok) {
      process.stderr.write(`${service.error}\n`);
      return null;
    }
    const target = { baseUrl: service.serviceUrl, token: service.token };
    return {
      job: service.job,
      reporter: new HttpReporter(target, service.job.bot_id),
      control: new HttpControl(target, service.job.bot_id, { log: (m) => log.warn(m) }),
      options: {},
      onSignal: (signal) => ({ kind: 'terminated', signal }),
      whenServiceGone: (onGone) => whenServiceGone(process.stdin, onGone),
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
    reporter: new ConsoleReporter(out),
    control: new NoControl(),
    options: cli.options,
    onSignal: () => ({ kind: 'leave_requested' }),
    whenServiceGone: null,
  };
};

const main = async (): Promise<number> => {
  const log = new BotLog();
  const s = await setup(log);
  if (!s) return 2;
  const stop = new AbortController();
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
  s.whenServiceGone?.(() => {
    if (stop.signal.aborted) return;
    log.warn('the service is gone: leaving');
    stop.abort({ kind: 'terminated', signal: 'SIGTERM' } satisfies EndCause);
  });
  try {
    const end = await runBot(s.job, {
      reporter: s.reporter,
      uploader: makeUploader(s.job.upload, s.job.bot_id),
      spill: makeSpillUploader(s.job.upload, s.job.bot_id),
      control: s.control,
      log,
      stop: stop.signal,
      options: s.options,
    });
    if (s.job.upload.kind === 'folder') process.stderr.write(`artifacts in ${s.job.upload.path}: ${end.outcome} ${end.error_code}\n`);
    return 0;
  } catch (err) {
    log.error(`bot crashed: ${(err as Error).stack ?? err}`);
    return 1;
  }
};

void main().then((code) => process.exit(code));
