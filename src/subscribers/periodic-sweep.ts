import type Logger from 'bunyan';

export interface PeriodicSweep {
  /** one sweep now (or waits for the one running), for tests and for a start */
  runNow(): Promise<void>;
  /** a sweep that starts after this call: now, or once the running one ends (what it read before the call came is not missed) */
  runAfter(): Promise<void>;
  /** no new sweep starts; resolves once the running one has finished */
  stop(): Promise<void>;
}

/**
 * Runs `sweep` every `intervalMs`, never two at once. Sweeps read their work from read models and record
 * what they did as events, so nothing is lost when the process stops between two of them.
 */
export const periodicSweep = (name: string, intervalMs: number, sweep: () => Promise<void>, log: Logger): PeriodicSweep => {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = (): Promise<void> => {
    running ??= sweep()
      .catch((err) => log.error({ err, sweep: name }, 'sweep failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  let queued: Promise<void> | null = null;
  const runAfter = (): Promise<void> => {
    if (running === null) return stopped ? Promise.resolve() : run();
    // Every call made while a sweep runs waits for the one next sweep.
    queued ??= running.then(() => {
      queued = null;
      return stopped ? undefined : run();
    });
    return queued;
  };
  const timer = setInterval(() => {
    if (!stopped) void run();
  }, intervalMs);
  timer.unref();
  return {
    runNow: run,
    runAfter,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
};
