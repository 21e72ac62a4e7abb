import type { BotJob } from '../../../contract/bot-contract';

export interface BotExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** the end of the process's error output, to tell an out-of-memory death from another crash */
  readonly stderrTail: string;
}

export interface LaunchedBot {
  /** the operating system's process id, where the bot runs on this machine */
  readonly pid?: number | undefined;
  readonly exited: Promise<BotExit>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts a bot runtime for a job; where it runs (a child process here) is the launcher's business. */
export interface BotLauncher {
  launch(job: BotJob, connection: { readonly serviceUrl: string; readonly botToken: string }): LaunchedBot;
}

/** The spec's crash codes from how a bot process died. */
export const crashCodeOf = (exit: BotExit): string => {
  if (/heap out of memory|out of memory|ENOMEM/i.test(exit.stderrTail)) return 'OOM_KILLED';
  if (exit.signal === 'SIGKILL') return 'FORCE_KILLED';
  if (exit.signal === 'SIGTERM') return 'SIGTERM';
  return 'GENERAL_ERROR';
};
