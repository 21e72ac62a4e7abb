import { instanceDecider } from '../../src/domain/instances/instance-decider';
import { InstanceEvent } from '../../src/domain/instances/instance-events';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(instanceDecider, InstanceEvent);
const T0 = '2026-11-23T09:00:00.000Z';
const alive = (when: string): InstanceEvent => ({ type: 'InstanceAlive', data: { instance_id: 'i-1', at: when } });
const recordAlive = (now: string) => ({ type: 'RecordAlive' as const, instance_id: 'i-1', now });

describe('instance heartbeats', () => {
  it('an instance records that it is alive when it starts', () => {
    spec.given([]).when(recordAlive(T0)).then([alive(T0)]);
  });
  it('then at most every 5 minutes', () => {
    spec.given([alive(T0)]).when(recordAlive(at(T0, { m: 4, s: 59 }))).thenNothing();
    spec.given([alive(T0)]).when(recordAlive(at(T0, { m: 5 }))).then([alive(at(T0, { m: 5 }))]);
  });
});
