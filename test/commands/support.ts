import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/Either';
import {
  WrongExpectedRevision,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamName,
} from '../../src/adapters/event-store/port';
import type { CommandDeps } from '../../src/commands/command-deps';
import { handleTeamCommand } from '../../src/commands/team-commands';
import { ForwardingStore } from '../support/forwarding-store';


/** Counts the appends refused with WrongExpectedRevision (the conflicts the handler had to retry). */
export class ConflictCountingStore extends ForwardingStore {
  conflicts = 0;
  override async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      return await super.appendToStream(stream, events, expected);
    } catch (error) {
      if (error instanceof WrongExpectedRevision) this.conflicts += 1;
      throw error;
    }
  }
}

export const T0 = '2026-01-05T09:00:00.000Z';

export const depsOver = (eventStore: EventStore, now: string = T0): CommandDeps => ({
  eventStore,
  clock: () => new Date(now),
  newId: () => randomUUID(),
});

export const createTeam = async (deps: CommandDeps, options: { daily_bot_cap?: number; initial_tokens?: number } = {}): Promise<string> => {
  const team_id = randomUUID();
  const created = await handleTeamCommand(deps, team_id, {
    type: 'CreateTeam',
    team_id,
    name: 'Acme',
    daily_bot_cap: options.daily_bot_cap ?? 75,
    rate_limit_per_second: 10,
    initial_tokens: options.initial_tokens ?? 100_000,
    now: deps.clock().toISOString(),
  });
  if (E.isLeft(created)) throw new Error(`team not created: ${created.left.code}`);
  return team_id;
};

/**
 * Holds the first read of every stream whose name starts with `prefix` until `parties` wrappers have all
 * made theirs: every party then decides on the same history, and all but one must lose the append race.
 * Inactive until `arm()`, so that setting up a test does not use it up.
 */
export class ReadBarrier {
  private armed = false;
  private waiting: (() => void)[] = [];
  private arrived = 0;
  constructor(private readonly prefix: string, private readonly parties: number) {}
  arm(): void {
    this.armed = true;
  }
  /** Resolves once every party has arrived; a stream outside the prefix or a disarmed barrier passes. */
  async pass(stream: StreamName, alreadyPassed: Set<string>): Promise<void> {
    if (!this.armed || !stream.startsWith(this.prefix) || alreadyPassed.has(stream)) return;
    alreadyPassed.add(stream);
    this.arrived += 1;
    if (this.arrived >= this.parties) {
      this.waiting.forEach((wake) => wake());
      this.waiting = [];
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}

export class BarrierStore extends ConflictCountingStore {
  private readonly passed = new Set<string>();
  constructor(inner: EventStore, private readonly barrier: ReadBarrier) {
    super(inner);
  }
  override async readStream(stream: StreamName, options?: { readonly fromRevision?: bigint }): Promise<readonly RecordedEvent[]> {
    const events = await super.readStream(stream, options);
    await this.barrier.pass(stream, this.passed);
    return events;
  }
}

/**
 * Plays another process: just before this store's next append(s) to `stream`, it appends `competitor()`
 * there itself, at the revision the command read, so the command's own append meets WrongExpectedRevision.
 */
export class CompetingAppendStore extends ConflictCountingStore {
  appendsAttempted = 0;
  constructor(
    inner: EventStore,
    private readonly stream: StreamName,
    private readonly competitor: () => NewEvent,
    private remainingCompetitors = 1,
  ) {
    super(inner);
  }
  override async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (stream === this.stream) {
      this.appendsAttempted += 1;
      if (this.remainingCompetitors > 0) {
        this.remainingCompetitors -= 1;
        await this.inner.appendToStream(stream, [this.competitor()], expected);
      }
    }
    return super.appendToStream(stream, events, expected);
  }
}

/**
 * The first append to a stream starting with `prefix` fails (`written`: it fails after writing, an
 * answer lost); later appends go through.
 */
export class FailingAppendStore extends ForwardingStore {
  private failed = false;
  constructor(inner: ForwardingStore['inner'], private readonly prefix: string, private readonly written: boolean) {
    super(inner);
  }
  override async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.failed || !stream.startsWith(this.prefix)) return super.appendToStream(stream, events, expected);
    this.failed = true;
    if (this.written) await super.appendToStream(stream, events, expected);
    throw new Error(`connection reset while appending to ${this.prefix}`);
  }
}
export const FailingBotAppendStore = class extends FailingAppendStore {
  constructor(inner: ForwardingStore['inner'], written: boolean) {
    super(inner, 'bot-', written);
  }
};
