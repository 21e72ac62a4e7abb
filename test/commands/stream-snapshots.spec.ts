import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import type { RecordedEvent, StreamName } from '../../src/adapters/event-store/port';
import { SqliteSnapshotStore } from '../../src/adapters/snapshot-store/sqlite-snapshot-store';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { SNAPSHOT_EVERY, useSnapshots } from '../../src/commands/stream-snapshots';
import { teamStreamName } from '../../src/domain/team/team-events';
import type { TeamState } from '../../src/domain/team/team-decider';
import { ForwardingStore } from '../support/forwarding-store';
import { sqliteFiles } from '../support/sqlite-files';
import { T0, createTeam, depsOver } from './support';

/** Counts the events a process reads from streams: what a first command after a start costs. */
class ReadCountingStore extends ForwardingStore {
  eventsRead = 0;
  override async readStream(stream: StreamName, options?: { readonly fromRevision?: bigint }): Promise<readonly RecordedEvent[]> {
    const events = await super.readStream(stream, options);
    this.eventsRead += events.length;
    return events;
  }
}

/** What a state says, comparable across the ways it was folded. */
const facts = (state: TeamState) =>
  state.kind === 'absent'
    ? state
    : { ...state, reservations: [...state.reservations], recentCreations: [...state.recentCreations] };

describe("snapshots of long streams: a team's ledger after a start", function () {
  this.timeout(60_000);
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(() => files.cleanup());

  /** A ledger with `n` reservations made through one process with snapshots in `snapshotFile`. */
  const ledgerOf = async (n: number, snapshotFile: string) => {
    const logFile = files.newFile();
    const store = files.open(logFile);
    const snapshots = new SqliteSnapshotStore(snapshotFile);
    useSnapshots(store, snapshots);
    const deps = depsOver(store);
    const team = await createTeam(deps, { daily_bot_cap: 100_000, initial_tokens: 100_000_000 });
    for (let first = 0; first < n; first += 100) {
      await Promise.all(Array.from({ length: Math.min(100, n - first) }, (_, i) => handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: `bot-${first + i}`, now: T0 })));
    }
    await snapshots.close();
    return { logFile, team };
  };

  /** Another process on the same log: an empty cache, snapshots from `snapshotFile` (none when omitted). */
  const freshProcess = (logFile: string, snapshotFile?: string) => {
    const store = new ReadCountingStore(files.open(logFile));
    if (snapshotFile !== undefined) useSnapshots(store, new SqliteSnapshotStore(snapshotFile));
    return { store, deps: depsOver(store) };
  };

  it('given a ledger of 2 500 reservations, the first command after a start folds only what came after its snapshot, and decides the same', async () => {
    const snapshotFile = files.newFile();
    const { logFile, team } = await ledgerOf(2500, snapshotFile);
    const withSnapshots = freshProcess(logFile, snapshotFile);
    const reserved = await handleTeamCommand(withSnapshots.deps, team, { type: 'ReserveTokensForBot', bot_id: 'after-the-start', now: T0 });
    assert.ok(E.isRight(reserved));
    assert.ok(withSnapshots.store.eventsRead <= Number(SNAPSHOT_EVERY), `read ${withSnapshots.store.eventsRead} events of a ${2500 + 2}-event ledger`);
    const fromTheStart = freshProcess(logFile);
    assert.deepEqual(facts(await loadTeam(withSnapshots.deps, team)), facts(await loadTeam(fromTheStart.deps, team)));
    assert.ok(fromTheStart.store.eventsRead > 2500, 'without snapshots the whole ledger is read');
  });

  it('passes over a snapshot of another history (the log at its revision holds another event) and folds the log', async () => {
    const snapshotFile = files.newFile();
    const first = await ledgerOf(1200, snapshotFile);
    const other = await ledgerOf(10, files.newFile());
    // The other log's team stream, read with the first log's snapshots: same stream name, another history.
    const snapshots = new SqliteSnapshotStore(snapshotFile);
    const stored = await snapshots.load(teamStreamName(first.team));
    assert.ok(stored !== null, 'the first ledger was snapshotted');
    await snapshots.save(teamStreamName(other.team), { ...stored, revision: 5n });
    await snapshots.close();
    const reader = freshProcess(other.logFile, snapshotFile);
    const state = await loadTeam(reader.deps, other.team);
    assert.equal(state.kind === 'present' ? state.reservations.size : -1, 10, "the other log's ledger, not the snapshot's");
  });

  it('passes over a snapshot of another version of the state', async () => {
    const snapshotFile = files.newFile();
    const { logFile, team } = await ledgerOf(1200, snapshotFile);
    const snapshots = new SqliteSnapshotStore(snapshotFile);
    const stored = (await snapshots.load(teamStreamName(team)))!;
    await snapshots.save(teamStreamName(team), { ...stored, version: stored.version + 1, state: { kind: 'present', garbage: true } });
    await snapshots.close();
    const reader = freshProcess(logFile, snapshotFile);
    const state = await loadTeam(reader.deps, team);
    assert.equal(state.kind === 'present' ? state.reservations.size : -1, 1200);
    assert.ok(reader.store.eventsRead > 1200);
  });
});
