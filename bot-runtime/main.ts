/**
 * The bot process.
 * - Started by the service: BOT_JOB, SERVICE_URL, BOT_TOKEN in the environment; reports, control and
 *   (UploadTarget http) artifacts go through the service's internal bot API. SIGTERM/SIGINT end the
 *   run with error code SIGTERM after storing what was recorded.
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
import { jobFromEnv } from './job-from-env';
import { ConsoleReporter } from './reporters/console-reporter';
import { HttpReporter } from './reporters/http-reporter';
import type { Reporter } from './reporters/reporter';
import { runBot, type RunOptions } from './run-bot';
import { makeUploader } from './uploaders/make-uploader';

interface Setup {
  job: BotJob;
  reporter: Reporter;
  control: ControlChannel;
  options: Partial<RunOptions>;
  onSignal: (signal: string) => EndCause;
}

const setup = (log: BotLog): Setup | null => {
  if (process.env.BOT_JOB) {
    const env = jobFromEnv(process.env);
    if (!env.ok) {
      process.stderr.write(`${env.error}\n`);
      return null;
    }
    const target = { baseUrl: env.serviceUrl, token: env.token };
    return {
      job: env.job,
      reporter: new HttpReporter(target, env.job.bot_id),
      control: new HttpControl(target, env.job.bot_id, { log: (m) => log.warn(m) }),
      options: {},
      onSignal: (signal) => ({ kind: 'terminated', signal }),
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
  };
};

const main = async (): Promise<number> => {
  const log = new BotLog();
  const s = setup(log);
  if (!s) return 2;
  const stop = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      log.error(`${signal} again: exiting without finishing`);
      process.exit(1);
    }
    log.info(`${signal}: leaving`);
    stop.abort(s.onSignal(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const end = await runBot(s.job, {
      reporter: s.reporter,
      uploader: makeUploader(s.job.upload, s.job.bot_id),
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
