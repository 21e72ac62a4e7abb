/** The warm pool's bookkeeping, with stand-in processes: it refills after use, replaces the dead, backs off from a broken host. */
import assert from 'node:assert/strict';
import { WarmPool, type PooledProcess } from '../../src/adapters/bot-launcher/warm-pool';
import { eventually } from '../support/eventually';

class StandIn implements PooledProcess {
  private static next = 1;
  readonly pid = StandIn.next++;
  isReady = false;
  hasExited = false;
  inputEnded = false;
  readonly killedWith: NodeJS.Signals[] = [];
  private becomeReady!: () => void;
  private finish!: (v: unknown) => void;
  readonly ready = new Promise<void>((resolve) => (this.becomeReady = resolve));
  readonly exited = new Promise<unknown>((resolve) => (this.finish = resolve));

  warm(): void {
    this.isReady = true;
    this.becomeReady();
  }

  die(): void {
    this.hasExited = true;
    this.finish(undefined);
  }

  endInput(): void {
    this.inputEnded = true;
    this.die(); // a warm process whose input ends exits
  }

  kill(signal: NodeJS.Signals): void {
    this.killedWith.push(signal);
    this.die();
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the warm pool', () => {
  let started: StandIn[];
  let pool: WarmPool<StandIn>;
  const lost: [number | undefined, boolean][] = [];

  beforeEach(() => {
    started = [];
    lost.length = 0;
    pool = new WarmPool(2, () => {
      const p = new StandIn();
      started.push(p);
      return p;
    }, { onLost: (p, early) => lost.push([p.pid, early]) });
  });
  afterEach(() => pool.close());

  it('fills up to its size, and no further', () => {
    pool.fill();
    pool.fill();
    assert.equal(started.length, 2);
    assert.deepEqual(pool.processes.map((p) => p.pid), started.map((p) => p.pid));
  });

  it('hands out a ready process first, and refills at once after use', () => {
    pool.fill();
    started[1]!.warm();
    const taken = pool.take();
    assert.equal(taken, started[1], 'the ready one, although the other was started first');
    assert.equal(started.length, 3, 'a replacement is starting');
    assert.deepEqual(pool.processes.map((p) => p.pid), [started[0]!.pid, started[2]!.pid]);
    assert.equal(pool.take(), started[0], 'one still starting is better than none');
    assert.equal(started.length, 4);
  });

  it('gives nothing when every waiting process is gone (the bot then starts cold)', async () => {
    const empty = new WarmPool(0, () => new StandIn());
    empty.fill();
    assert.equal(empty.take(), null);
  });

  it('replaces a ready process that dies while it waits; a taken one that dies is its bot\'s business', async () => {
    pool.fill();
    started[0]!.warm();
    started[1]!.warm();
    const taken = pool.take()!;
    assert.equal(started.length, 3);
    taken.die();
    await tick();
    assert.equal(started.length, 3, 'the taken process is not replaced');
    started[1]!.die();
    await tick();
    assert.deepEqual(lost, [[started[1]!.pid, false]]);
    assert.equal(started.length, 4, 'the dead waiting one is replaced');
    assert.ok(!pool.processes.includes(started[1]!));
  });

  it('backs off when replacements die before they are ready, and fills again after the pause', async function () {
    this.timeout(10_000);
    pool.fill();
    started[0]!.die();
    await tick();
    assert.deepEqual(lost, [[started[0]!.pid, true]]);
    assert.equal(started.length, 2, 'no replacement during the pause');
    await eventually(async () => started.length, (n) => n === 3); // the first pause is a second
    await tick();
    assert.equal(started.length, 3, 'refilled once after the pause');
    assert.equal(pool.processes.length, 2);
  });

  it('close ends every waiting process through its input and starts no more', async () => {
    pool.fill();
    await pool.close();
    assert.ok(started.every((p) => p.inputEnded));
    assert.equal(pool.processes.length, 0);
    pool.fill();
    assert.equal(started.length, 2);
    assert.equal(pool.take(), null);
  });
});
