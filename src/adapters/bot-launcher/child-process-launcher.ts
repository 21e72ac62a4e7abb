import { spawn } from 'node:child_process';
import path from 'node:path';
import type Logger from 'bunyan';
import type { BotJob } from '../../../bot-runtime/contract';
import type { BotExit, BotLauncher, LaunchedBot } from './port';

const BOT_MAIN = path.resolve(__dirname, '../../../bot-runtime/main.ts');
const STDERR_TAIL_BYTES = 4096;

/** Only what a process needs to run: the service's own secrets (ADMIN_TOKEN, keys) never reach a bot. */
const inheritedEnvironment = (): NodeJS.ProcessEnv => {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'NODE_ENV', 'CHROMIUM_PATH'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
};

/** One child process per bot on this machine; the job travels in the environment, never on the command line. */
export class ChildProcessLauncher implements BotLauncher {
  constructor(private readonly log: Logger) {}

  launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): LaunchedBot {
    const child = spawn(process.execPath, ['--import', 'tsx', BOT_MAIN], {
      env: { ...inheritedEnvironment(), BOT_JOB: JSON.stringify(job), SERVICE_URL: connection.serviceUrl, BOT_TOKEN: connection.botToken },
      stdio: ['ignore', 'ignore', 'pipe'],
      // its own process group, so that whatever it started can be ended with it
      detached: true,
    });
    let stderrTail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const exited = new Promise<BotExit>((resolve) => {
      child.on('error', (err) => {
        this.log.error({ err, bot_id: job.bot_id }, 'bot process could not start');
        resolve({ code: null, signal: null, stderrTail: String(err) });
      });
      child.on('exit', (code, signal) => {
        // A bot that died abruptly may leave children behind: end the whole group.
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is already gone
        }
        resolve({ code, signal, stderrTail });
      });
    });
    this.log.info({ bot_id: job.bot_id, pid: child.pid }, 'bot process started');
    return { pid: child.pid, exited, kill: (signal) => void child.kill(signal) };
  }
}
