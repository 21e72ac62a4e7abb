import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Logger from 'bunyan';
import { SERVICE_MODE_VARIABLE, type BotJob, type BotLaunch, type Platform } from '../../../contract/bot-contract';
import { botUserName, lookUpUser } from '../../../contract/host/bot-user';
import { botProcessEnvironment } from '../../../contract/host/environment';
import { botIdentityFor, type BotIdentity } from './bot-identity';
import type { BotExit, BotLauncher, LaunchedBot } from './port';

const REPOSITORY = path.resolve(__dirname, '../../..');
const BOT_MAIN = path.join(REPOSITORY, 'bot-runtime/main.ts');
/** The scripted stand-in (development and tests): the same launch and internal API, no browser. */
const SCRIPTED_BOT_MAIN = path.join(REPOSITORY, 'bot-runtime/scripted/main.ts');
const STDERR_TAIL_BYTES = 4096;

export interface ChildProcessLauncherOptions {
  /** passed to bots as SANDBOX_REPLICAS (development and tests: the real platform hosts go to that sandbox) */
  readonly sandboxReplicas?: string | undefined;
  /** BOT_TEST_CA_PEM (development and tests): a file of the service's holding a certificate authority of local HTTPS/WSS servers */
  readonly botTestCaPem?: string | undefined;
  /** SCRIPTED_BOTS (development and tests): bots of these platforms run the scripted stand-in instead of Chromium */
  readonly scriptedBots?: readonly Platform[] | undefined;
}

/** Its text goes to the bot with the job, since the bot user cannot read the service's files. */
const testCaPem = (file: string | undefined, log: Logger): string | null => {
  if (!file) return null;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    log.warn({ err }, 'BOT_TEST_CA_PEM unreadable');
    return null;
  }
};

/**
 * One child process per bot on this machine, as the bot user (bot-identity.ts), in a private folder of its
 * own (its home and temporary folder, removed when it ends), with an environment by allow-list. The job and
 * the bot's token travel on its standard input, never on the command line or in the environment (which
 * other processes of the user, Chromium's among them, could read); the pipe stays open, so that the bot
 * sees the service die with it and does not stay in the meeting on its own.
 */
export class ChildProcessLauncher implements BotLauncher {
  constructor(
    private readonly log: Logger,
    private readonly identity: BotIdentity,
    private readonly options: ChildProcessLauncherOptions = {},
  ) {}

  launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): LaunchedBot {
    if (this.identity.kind === 'refused') throw new Error(`bots cannot run on this machine: ${this.identity.reason}`);
    const owner = this.identity.kind === 'bot_user' ? this.identity.user : null;
    const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meetbot-'));
    if (owner) fs.chownSync(privateDir, owner.uid, owner.gid);
    const scripted = this.options.scriptedBots?.includes(job.platform) ?? false;
    const child = spawn(process.execPath, ['--import', 'tsx', scripted ? SCRIPTED_BOT_MAIN : BOT_MAIN], {
      cwd: REPOSITORY,
      env: {
        ...botProcessEnvironment(privateDir, process.env, {
          NODE_ENV: process.env.NODE_ENV,
          CHROMIUM_PATH: process.env.CHROMIUM_PATH,
          SANDBOX_REPLICAS: this.options.sandboxReplicas,
        }),
        [SERVICE_MODE_VARIABLE]: '1',
      },
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
      stdio: ['pipe', 'ignore', 'pipe'],
      // its own process group, so that whatever it started can be ended with it
      detached: true,
    });
    const launch: BotLaunch = { job, service_url: connection.serviceUrl, token: connection.botToken, test_ca_pem: testCaPem(this.options.botTestCaPem, this.log) };
    child.stdin.on('error', () => undefined); // a bot that died before reading its job: its exit tells
    child.stdin.write(`${JSON.stringify(launch)}\n`);
    let stderrTail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const exited = new Promise<BotExit>((resolve) => {
      const done = (exit: BotExit) => {
        fs.rm(privateDir, { recursive: true, force: true, maxRetries: 3 }, () => resolve(exit));
      };
      child.on('error', (err) => {
        this.log.error({ err, bot_id: job.bot_id }, 'bot process could not start');
        done({ code: null, signal: null, stderrTail: String(err) });
      });
      child.on('exit', (code, signal) => {
        // A bot that died abruptly may leave children behind: end the whole group.
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is already gone
        }
        done({ code, signal, stderrTail });
      });
    });
    this.log.info({ bot_id: job.bot_id, pid: child.pid, uid: owner?.uid ?? process.getuid?.(), scripted }, 'bot process started');
    return { pid: child.pid, exited, kill: (signal) => void child.kill(signal) };
  }
}

/**
 * The launcher of this machine's bots, as its user allows: a service that would run bots (`slots` > 0) but
 * cannot isolate them refuses to start; one told to run them as itself says so loudly.
 */
export const childProcessLauncherFor = (
  log: Logger,
  settings: {
    readonly botUser?: string | undefined;
    readonly botSameUser?: boolean | undefined;
    readonly sandboxReplicas?: string | undefined;
    readonly botTestCaPem?: string | undefined;
    readonly scriptedBots?: readonly Platform[] | undefined;
  },
  slots: number,
): ChildProcessLauncher => {
  const name = botUserName({ BOT_USER: settings.botUser });
  const identity = botIdentityFor(process.getuid?.() ?? 0, name, lookUpUser(name), settings.botSameUser ?? false);
  if (identity.kind === 'refused' && slots > 0) throw new Error(`Bots cannot run safely here: ${identity.reason}`);
  if (identity.kind === 'service_user') {
    log.warn('BOT_SAME_USER=1 (development only): bots run as the service\'s own user and could read DATA_DIR and the service secret; never use it in production');
  }
  if (identity.kind === 'bot_user') log.info({ bot_user: identity.user.name, uid: identity.user.uid }, 'bots run as their own user');
  return new ChildProcessLauncher(log, identity, { sandboxReplicas: settings.sandboxReplicas, botTestCaPem: settings.botTestCaPem, scriptedBots: settings.scriptedBots });
};
