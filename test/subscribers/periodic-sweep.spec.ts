import assert from 'node:assert/strict';
import bunyan from 'bunyan';
import { periodicSweep } from '../../src/subscribers/periodic-sweep';

const log = bunyan.createLogger({ name: 'test', level: 'fatal' });
const HOUR = 60 * 60 * 1000;

/** A sweep that records what it saw of `work` and ends when the test lets it. */
const gatedSweep = (work: string[]) => {
  const seen: string[][] = [];
  const gates: (() => void)[] = [];
  const sweep = periodicSweep('test', HOUR, async () => {
    seen.push([...work]);
    await new Promise<void>((resolve) => gates.push(resolve));
  }, log);
  const release = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.shift()!();
  };
  return { sweep, seen, release };
};

describe('a periodic sweep', () => {
  it('runAfter: work that comes while a sweep runs is swept by the next one, once however many ask', async () => {
    const work = ['a'];
    const { sweep, seen, release } = gatedSweep(work);
    const first = sweep.runAfter();
    assert.deepEqual(seen, [['a']], 'the first sweep has read its work');
    work.push('b');
    const [second, third] = [sweep.runAfter(), sweep.runAfter()];
    assert.equal(sweep.runNow(), sweep.runNow(), 'runNow joins the sweep under way');
    await release();
    await first;
    await release();
    await Promise.all([second, third]);
    assert.deepEqual(seen, [['a'], ['a', 'b']], 'one more sweep, which saw what came');
    await sweep.stop();
  });

  it('runAfter after stop starts nothing', async () => {
    const { sweep, seen } = gatedSweep([]);
    await sweep.stop();
    await sweep.runAfter();
    assert.deepEqual(seen, []);
  });
});
