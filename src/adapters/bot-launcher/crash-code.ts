import type { BotExit } from './port';

/** The spec's crash codes from how a bot process died. */
export const crashCodeOf = (exit: BotExit): string => {
  if (/heap out of memory|out of memory|ENOMEM/i.test(exit.stderrTail)) return 'OOM_KILLED';
  if (exit.signal === 'SIGKILL') return 'FORCE_KILLED';
  if (exit.signal === 'SIGTERM') return 'SIGTERM';
  return 'GENERAL_ERROR';
};
