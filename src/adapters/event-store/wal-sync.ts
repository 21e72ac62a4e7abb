import { closeSync, fsync, openSync } from 'node:fs';

/**
 * Syncs a SQLite database's write-ahead log to disk on libuv's thread pool, for commits made with
 * `synchronous = NORMAL` (which write the log but do not sync it): what `synchronous = FULL` does inside
 * every COMMIT, with the event loop blocked for the whole sync, done beside it instead. A commit is on
 * disk once a sync that started after it has finished; syncs never overlap, and one covers every commit
 * made before it started, so a burst of commits costs one or two syncs.
 */
export class WalSync {
  private fd: number | null = null;
  /** told once a sync that started after their commit has finished */
  private waiting: ((error: Error | null) => void)[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly walPath: string) {}

  /** Calls `done` once everything committed before this call is on disk (or with the reason it is not). */
  afterCommit(done: (error: Error | null) => void): void {
    this.waiting.push(done);
    if (this.running === null) this.running = this.syncWhileWaiting();
  }

  private async syncWhileWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const covered = this.waiting;
      this.waiting = [];
      const error = await this.syncOnce();
      for (const done of covered) done(error);
    }
    this.running = null;
  }

  private syncOnce(): Promise<Error | null> {
    return new Promise((resolve) => {
      try {
        // The log exists once the database has a commit in WAL mode; the descriptor is opened once.
        this.fd ??= openSync(this.walPath, 'r');
      } catch (error) {
        return resolve(error instanceof Error ? error : new Error(String(error)));
      }
      fsync(this.fd, (error) => resolve(error));
    });
  }

  /** Waits for the syncs under way, then lets the log go. */
  async close(): Promise<void> {
    while (this.running !== null) await this.running;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
