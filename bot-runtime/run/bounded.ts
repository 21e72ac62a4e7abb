/**
 * A page that is navigating, frozen or gone can leave a read of it waiting far longer than anyone
 * should (MB #333: `page.title()` hung for hours). Reads that must not hold the run up are bounded.
 */
export class TimedOut extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'TimedOut';
  }
}

/** `work`, or a TimedOut rejection after `ms` (the work goes on unwatched; its failure is ignored). */
export const bounded = <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(what, ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
};
