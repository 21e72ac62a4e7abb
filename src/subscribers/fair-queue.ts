import type Logger from 'bunyan';
import { Turns } from './turns';

/** One piece of work of a team, found at `position` in the log (kept for a replay until it is done). */
export interface FairJob {
  readonly key: string;
  readonly teamId: string;
  readonly position: bigint;
  readonly run: () => Promise<void>;
}

export interface FairQueueOptions {
  /** jobs running at once in all */
  readonly total: number;
  /** jobs of one team running at once */
  readonly perTeam: number;
  /** how long a job that failed unexpectedly waits before it runs again */
  readonly retryMs: number;
}

/**
 * Work shared by every team, served in turn: teams take turns (Turns: the team served longest ago first;
 * each team's own jobs in the order they came),
 * and a team runs at most `perTeam` jobs at once, so a team with a hundred jobs waiting delays another
 * team's one by at most the jobs already running. In memory only: `oldestPosition` tells the subscriber
 * that feeds it where to replay from after a restart, so nothing waiting is lost.
 */
export class FairQueue {
  private readonly waiting = new Map<string, FairJob[]>();
  private readonly keys = new Map<string, FairJob>();
  private readonly running = new Map<string, FairJob>();
  private readonly runningPerTeam = new Map<string, number>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly turns = new Turns<string>();
  private stopped = false;

  constructor(
    private readonly options: FairQueueOptions,
    private readonly log: Logger,
  ) {}

  /** Queues a job; one with the key of a job waiting or running is the same job (a replay), not another. */
  add(job: FairJob): void {
    if (this.stopped || this.keys.has(job.key)) return;
    this.keys.set(job.key, job);
    const jobs = this.waiting.get(job.teamId) ?? [];
    this.waiting.set(job.teamId, jobs);
    jobs.push(job);
    this.pump();
  }

  /** The log position of the oldest job not done (waiting, running or waiting to retry). */
  oldestPosition(): bigint | undefined {
    let oldest: bigint | undefined;
    for (const job of this.keys.values()) if (oldest === undefined || job.position < oldest) oldest = job.position;
    return oldest;
  }

  /** No job starts any more; those running are left to end (their work stops them). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.options.total) {
      const job = this.nextInTurn();
      if (job === null) return;
      this.start(job);
    }
  }

  private nextInTurn(): FairJob | null {
    const hasSlot = (teamId: string) => ((this.runningPerTeam.get(teamId) ?? 0) < this.options.perTeam ? teamId : null);
    const turn = this.turns.next(this.waiting, hasSlot);
    if (turn === null) return null;
    this.turns.served(turn.key);
    const jobs = this.waiting.get(turn.key)!;
    const job = jobs.shift()!;
    if (jobs.length === 0) this.waiting.delete(turn.key);
    return job;
  }

  private start(job: FairJob): void {
    this.running.set(job.key, job);
    this.runningPerTeam.set(job.teamId, (this.runningPerTeam.get(job.teamId) ?? 0) + 1);
    void job
      .run()
      .then(
        () => this.keys.delete(job.key),
        (err: unknown) => {
          if (this.stopped) return;
          // Kept (its position holds the replay): tried again after a pause.
          this.log.error({ err, job: job.key }, 'a queued job failed unexpectedly; it runs again');
          const timer = setTimeout(() => {
            this.retries.delete(timer);
            this.keys.delete(job.key);
            this.add(job);
          }, this.options.retryMs);
          this.retries.add(timer);
        },
      )
      .finally(() => {
        this.running.delete(job.key);
        const left = (this.runningPerTeam.get(job.teamId) ?? 1) - 1;
        if (left === 0) this.runningPerTeam.delete(job.teamId);
        else this.runningPerTeam.set(job.teamId, left);
        this.pump();
      });
  }
}
