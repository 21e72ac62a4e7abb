import * as t from 'io-ts';
import { eventCodec, IsoInstant } from '../codec-helpers';

/**
 * A service instance says it is alive, at start and every few minutes while it runs, so that other
 * instances can tell one that is gone for good (its bots would otherwise wait forever).
 */
export const InstanceAlive = eventCodec('InstanceAlive', { instance_id: t.string, at: IsoInstant });

export const InstanceEvent = InstanceAlive;
export type InstanceEvent = t.TypeOf<typeof InstanceEvent>;

export const instanceStreamName = (instanceId: string): string => `instance-${instanceId}`;
