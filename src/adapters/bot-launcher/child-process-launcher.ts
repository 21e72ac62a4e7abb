import { spawn } from 'node:child_process';
import path from 'node:path';
import type Logger from 'bunyan';
import { SERVICE_MODE_VARIABLE, type BotJob } from '../../../contract/bot-contract';
import type { BotExit, BotLauncher, LaunchedBot } from './port';

const BOT_MAIN = path.resolve(__dirname, '../../../bot-runtime/main.ts');
const STDERR_TAIL_BYTES = 4096;

/** Only what a process needs to run: the service's own secrets (ADMIN_TOKEN, keys) never reach a bot. */
const inheritedEnvironment = (): NodeJS.ProcessEnv => {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'NODE_ENV', 'CHROMIUM_PATH'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
};

/**
 * One child process per bot on this machine. The job travels on its standard input, never on the command
 * line or in the environment (a large job passes the kernel's limit there); the pipe stays open, so that
 * the bot sees the service die with it and does not stay in the meeting on its own.
 */
export class ChildProcessLauncher implements BotLauncher {
  /**
   * The service's own development settings, passed on explicitly (never inherited from its environment):
   * `sandboxReplicas` as SANDBOX_REPLICAS (the real platform hosts go to that sandbox), `botTestCaPem` as
   * BOT_TEST_CA_PEM (a certificate authority of tests' local HTTPS/WSS servers).
   */
  constructor(
    private readonly log: Logger,
    private readonly options: { readonly sandboxReplicas?: string | undefined; readonly botTestCaPem?: string | undefined } = {},
  ) {}

  launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): LaunchedBot {
    const child = spawn(process.execPath, ['--import', 'tsx', BOT_MAIN], {
      env: {
        ...inheritedEnvironment(),
        ...(this.options.sandboxReplicas ? { SANDBOX_REPLICAS: this.options.sandboxReplicas } : {}),
        ...(this.options.botTestCaPem ? { BOT_TEST_CA_PEM: this.options.botTestCaPem } : {}),
        [SERVICE_MODE_VARIABLE]: '1',
        SERVICE_URL: connection.serviceUrl,
        BOT_TOKEN: connection.botToken,
      },
      stdio: ['pipe', 'ignore', 'pipe'],
      // its own process group, so that whatever it started can be ended with it
      detached: true,
    });
    child.stdin.on('error', () => undefined); // a bot that died before reading its job: its exit tells
    child.stdin.write(`${JSON.stringify(job)}\n`);
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
