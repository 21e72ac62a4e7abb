import { instanceDecider } from '../domain/instances/instance-decider';
import { InstanceEvent, instanceStreamName } from '../domain/instances/instance-events';
import { nowIso, type CommandDeps } from './command-deps';
import { handleCommand } from './handle-command';

/** This instance is alive (recorded at most every few minutes; see the instance decider). */
export const recordInstanceAlive = (deps: CommandDeps, instanceId: string) =>
  handleCommand(deps.eventStore, instanceStreamName(instanceId), instanceDecider, InstanceEvent, { type: 'RecordAlive', instance_id: instanceId, now: nowIso(deps) });
