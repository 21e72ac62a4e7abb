import * as fs from 'node:fs';
import path from 'node:path';
import type Logger from 'bunyan';
import type { BotJob, BotLaunch, Platform } from '../../../contract/bot-contract';
import { botUserName, lookUpUser } from '../../../contract/host/bot-user';
import { botIdentityFor, type BotIdentity } from './bot-identity';
import { startBotProcess, type BotProcess } from './bot-process';
import { compiledBotRuntime } from './compiled-runtime';
import type { BotLauncher, LaunchedBot } from './port';
import { WarmPool } from './warm-pool';

const REPOSITORY = path.resolve(__dirname, '../../..');
/** The scripted stand-in (development and tests): the same launch and internal API, no browser; run from its source. */
const SCRIPTED_BOT_MAIN = path.join(REPOSITORY, 'bot-runtime/scripted/main.ts');

export interface ChildProcessLauncherOptions {
  /** passed to bots as SANDBOX_REPLICAS (development and tests: the real platform hosts go to that sandbox) */
  readonly sandboxReplicas?: string | undefined;
  /** BOT_TEST_CA_PEM (development and tests): a file of the service's holding a certificate authority of local HTTPS/WSS servers */
  readonly botTestCaPem?: string | undefined;
  /** BOT_POOL_SIZE: bot processes kept started, with their Chromium, before their job */
  readonly poolSize?: number | undefined;
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
 * One child process per bot on this machine (bot-process.ts), taken from the warm pool when one waits there
 * (warm-pool.ts), else started for the job. Either way the process serves that one bot and exits with it.
 */
export class ChildProcessLauncher implements BotLauncher {
  private pool: WarmPool<BotProcess> | null = null;
  private closed = false;

  constructor(
    private readonly log: Logger,
    private readonly identity: BotIdentity,
    private readonly options: ChildProcessLauncherOptions = {},
  ) {}

  /** Compiles the runtime and fills the pool; launches work before (they wait for the compilation). */
  async start(): Promise<void> {
    if (this.identity.kind === 'refused') return;
    let main: string;
    try {
      main = await compiledBotRuntime();
    } catch (err) {
      this.log.error({ err }, 'the bot runtime could not be compiled: bots fail until it can');
      return;
    }
    const size = this.options.poolSize ?? 0;
    if (size <= 0 || this.closed || this.pool) return;
    this.pool = new WarmPool(size, () => this.startProcess(main, true), {
      onLost: (p, early) => this.log.warn({ pid: p.pid }, early ? 'a warm bot process died before it was ready: replaced after a pause' : 'a warm bot process died: replaced'),
      onStartFailed: (err) => this.log.error({ err }, 'a warm bot process could not be started'),
    });
    this.pool.fill();
    this.log.info({ pool_size: size }, 'warm bot processes starting');
  }

  /** The pool's waiting processes' ids (operators and benches). */
  get warmPids(): number[] {
    return this.waiting().flatMap((p) => (p.pid === undefined ? [] : [p.pid]));
  }

  /** How many of them have their Chromium up. */
  get warmReadyCount(): number {
    return this.waiting().filter((p) => p.isReady).length;
  }

  private waiting(): BotProcess[] {
    return (this.pool?.processes ?? []).filter((p) => !p.hasExited);
  }

  async launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): Promise<LaunchedBot> {
    if (this.identity.kind === 'refused') throw new Error(`bots cannot run on this machine: ${this.identity.reason}`);
    const scripted = this.options.scriptedBots?.includes(job.platform) ?? false;
    // the scripted stand-in needs no browser: never one of the pool's processes
    const warm = scripted ? null : (this.pool?.take() ?? null);
    const bot = warm ?? (scripted ? this.startScripted() : this.startProcess(await compiledBotRuntime(), false));
    const launch: BotLaunch = { job, service_url: connection.serviceUrl, token: connection.botToken, test_ca_pem: testCaPem(this.options.botTestCaPem, this.log) };
    bot.send(launch);
    void bot.exited.then((exit) => {
      if (exit.code === null && exit.signal === null) this.log.error({ bot_id: job.bot_id, err: exit.stderrTail }, 'bot process could not start');
    });
    this.log.info({ bot_id: job.bot_id, pid: bot.pid, uid: this.owner?.uid ?? process.getuid?.(), from_pool: warm !== null, scripted, warm_ready: warm?.isReady ?? false }, 'bot process started');
    return { pid: bot.pid, exited: bot.exited, kill: (signal) => bot.kill(signal) };
  }

  /** Ends the pool's waiting processes; running bots are the dispatcher's. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
  }

  private get owner() {
    return this.identity.kind === 'bot_user' ? this.identity.user : null;
  }

  private startProcess(main: string, warm: boolean): BotProcess {
    const bot = startBotProcess({ main, owner: this.owner, sandboxReplicas: this.options.sandboxReplicas }, warm);
    if (warm) this.log.debug({ pid: bot.pid }, 'warm bot process started');
    return bot;
  }

  private startScripted(): BotProcess {
    return startBotProcess({ main: SCRIPTED_BOT_MAIN, nodeArguments: ['--import', 'tsx'], cwd: REPOSITORY, owner: this.owner, sandboxReplicas: this.options.sandboxReplicas }, false);
  }
}

/**
 * The launcher of this machine's bots, as its user allows: a service that would run bots (`slots` > 0) but
 * cannot isolate them refuses to start; one told to run them as itself says so loudly. Its warm pool (none
 * where no bot runs: `slots` 0) fills once the service starts its dispatcher (`start`).
 */
export const childProcessLauncherFor = (
  log: Logger,
  settings: {
    readonly botUser?: string | undefined;
    readonly botSameUser?: boolean | undefined;
    readonly sandboxReplicas?: string | undefined;
    readonly botTestCaPem?: string | undefined;
    readonly botPoolSize?: number | undefined;
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
  return new ChildProcessLauncher(log, identity, {
    sandboxReplicas: settings.sandboxReplicas,
    botTestCaPem: settings.botTestCaPem,
    poolSize: slots > 0 ? (settings.botPoolSize ?? defaultBotPoolSize(slots)) : 0,
    scriptedBots: settings.scriptedBots,
  });
};

/** Two warm bots, or one per slot on a machine of fewer slots. */
export const defaultBotPoolSize = (slots: number): number => Math.max(0, Math.min(2, slots));
