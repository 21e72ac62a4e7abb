import type { BotJob } from '../../contract/bot-contract';
import type { BotExit, BotLauncher, LaunchedBot } from '../../src/adapters/bot-launcher/port';

export interface ScriptedLaunch {
  readonly job: BotJob;
  readonly serviceUrl: string;
  readonly botToken: string;
  /** ends the stand-in process as a crash or a normal exit would */
  exit(exit: Partial<BotExit>): void;
  readonly killedWith: NodeJS.Signals[];
}

/**
 * Starts no process: it hands the job to the test, which then speaks the bots' internal HTTP API itself.
 * The real bot runtime is tested end to end elsewhere; this isolates the service's side of the contract.
 */
export class ScriptedLauncher implements BotLauncher {
  readonly launches: ScriptedLaunch[] = [];
  private waiters: ((launch: ScriptedLaunch) => void)[] = [];

  launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): LaunchedBot {
    let finish!: (exit: BotExit) => void;
    const exited = new Promise<BotExit>((resolve) => (finish = resolve));
    const killedWith: NodeJS.Signals[] = [];
    const launch: ScriptedLaunch = {
      job,
      serviceUrl: connection.serviceUrl,
      botToken: connection.botToken,
      killedWith,
      exit: (exit) => finish({ code: null, signal: null, stderrTail: '', ...exit }),
    };
    this.launches.push(launch);
    this.waiters.forEach((w) => w(launch));
    // Like a process, the stand-in ends when it is killed.
    return { exited, kill: (signal) => (killedWith.push(signal), finish({ code: null, signal, stderrTail: '' })) };
  }

  /** The launch of a given bot, once the dispatcher has made it. */
  waitForLaunch(botId: string, timeoutMs = 5000): Promise<ScriptedLaunch> {
    const found = this.launches.find((l) => l.job.bot_id === botId);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bot ${botId} was not launched`)), timeoutMs);
      this.waiters.push((launch) => {
        if (launch.job.bot_id === botId) {
          clearTimeout(timer);
          resolve(launch);
        }
      });
    });
  }
}
