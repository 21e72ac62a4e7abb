import assert from 'node:assert/strict';
import { ReadyStreams } from '../../src/subscribers/webhooks/ready-streams';

const always = () => true;

/** Takes streams until none is left (or none may start), as the worker would with every slot free. */
const drain = (ready: ReadyStreams, teamHasSlot: (team: string) => boolean = always, targetHasSlot: (target: string) => boolean = always) => {
  const order: string[] = [];
  for (let next = ready.take(teamHasSlot, targetHasSlot); next !== null; next = ready.take(teamHasSlot, targetHasSlot)) order.push(next.stream);
  return order;
};

describe('due delivery streams are served in turn', () => {
  it('teams take turns however many streams each has waiting: a team with one is served second, not after a thousand', () => {
    const ready = new ReadyStreams();
    for (let i = 0; i < 1_000; i++) ready.add({ stream: `a${i}`, teamId: 'A', targetKey: 'endpoint:a' });
    ready.add({ stream: 'b0', teamId: 'B', targetKey: 'endpoint:b' });
    ready.add({ stream: 'c0', teamId: 'C', targetKey: 'endpoint:c' });
    ready.add({ stream: 'c1', teamId: 'C', targetKey: 'endpoint:c' });
    const order = drain(ready);
    assert.deepEqual(order.slice(0, 6), ['a0', 'b0', 'c0', 'a1', 'c1', 'a2']);
    assert.equal(order.length, 1_003);
    assert.equal(ready.size, 0);
  });

  it('the team served longest ago goes first: one just served whose next message comes in before another team’s still waits its turn', () => {
    const ready = new ReadyStreams();
    ready.add({ stream: 'a0', teamId: 'A', targetKey: 'endpoint:a' });
    assert.equal(ready.take(always, always)?.stream, 'a0');
    ready.add({ stream: 'a1', teamId: 'A', targetKey: 'endpoint:a' });
    ready.add({ stream: 'b0', teamId: 'B', targetKey: 'endpoint:b' });
    assert.deepEqual(drain(ready), ['b0', 'a1']);
  });

  it('within a team its targets take turns, each target’s streams in the order they became due', () => {
    const ready = new ReadyStreams();
    for (const [stream, target] of [['x1', 'callback:1'], ['x2', 'callback:1'], ['x3', 'callback:1'], ['y1', 'callback:2'], ['z1', 'endpoint:z']]) {
      ready.add({ stream: stream!, teamId: 'A', targetKey: target! });
    }
    assert.deepEqual(drain(ready), ['x1', 'y1', 'z1', 'x2', 'x3']);
  });

  it('a team or target at its limit is passed over and keeps its turn for when it has a slot again', () => {
    const ready = new ReadyStreams();
    ready.add({ stream: 'a0', teamId: 'A', targetKey: 'endpoint:a' });
    ready.add({ stream: 'a1', teamId: 'A', targetKey: 'endpoint:a2' });
    ready.add({ stream: 'b0', teamId: 'B', targetKey: 'endpoint:b' });
    ready.add({ stream: 'b1', teamId: 'B', targetKey: 'endpoint:b-slow' });
    // A has no slot left; B's slow endpoint has none either.
    assert.deepEqual(drain(ready, (team) => team !== 'A', (target) => target !== 'endpoint:b-slow'), ['b0']);
    assert.equal(ready.take(() => false, always), null, 'no team may start: nothing is taken');
    assert.deepEqual(drain(ready), ['a0', 'b1', 'a1']);
  });

  it('a stream waits once however often it is added; a target turned off takes its streams with it', () => {
    const ready = new ReadyStreams();
    ready.add({ stream: 's', teamId: 'A', targetKey: 'endpoint:a' });
    ready.add({ stream: 's', teamId: 'A', targetKey: 'endpoint:a' });
    ready.add({ stream: 't', teamId: 'A', targetKey: 'endpoint:off' });
    ready.add({ stream: 'u', teamId: 'B', targetKey: 'endpoint:off' });
    assert.equal(ready.size, 3);
    assert.deepEqual(ready.removeTarget('endpoint:off').sort(), ['t', 'u']);
    assert.equal(ready.has('t'), false);
    assert.deepEqual(drain(ready), ['s']);
  });
});
