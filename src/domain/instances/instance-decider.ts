import * as E from 'fp-ts/Either';
import { toMillis } from '../codec-helpers';
import type { Decider } from '../decider';
import type { InstanceEvent } from './instance-events';

/** How often a running instance says it is alive. */
export const ALIVE_EVERY_MS = 5 * 60 * 1000;
/** An instance silent for this long is gone: three heartbeats missed. */
export const GONE_AFTER_MS = 15 * 60 * 1000;

export type InstanceCommand = { readonly type: 'RecordAlive'; readonly instance_id: string; readonly now: string };

export type InstanceState = { readonly lastAliveAt: string | null };

const initialState = (): InstanceState => ({ lastAliveAt: null });

/** Recorded at start, then no more often than every ALIVE_EVERY_MS: the stream grows by about 300 events a day. */
const decide = (command: InstanceCommand, state: InstanceState) => {
  const due = state.lastAliveAt === null || toMillis(command.now) - toMillis(state.lastAliveAt) >= ALIVE_EVERY_MS;
  return E.right<never, readonly InstanceEvent[]>(due ? [{ type: 'InstanceAlive', data: { instance_id: command.instance_id, at: command.now } }] : []);
};

const evolve = (_state: InstanceState, event: InstanceEvent): InstanceState => ({ lastAliveAt: event.data.at });

export const instanceDecider: Decider<InstanceCommand, InstanceEvent, InstanceState, never> = { decide, evolve, initialState };

/** Whether an instance last seen alive at `lastAliveAt` (null: never) is gone at `nowMs`. */
export const isInstanceGone = (lastAliveAt: string | null, nowMs: number, since: string): boolean =>
  nowMs - toMillis(lastAliveAt ?? since) >= GONE_AFTER_MS;
