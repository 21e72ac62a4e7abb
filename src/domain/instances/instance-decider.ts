import * as E from 'fp-ts/Either';
import { toMillis } from '../codec-helpers';
import type { Decider } from '../decider';
import type { InstanceEvent } from './instance-events';

/**
 * Earlier versions recorded that an instance was alive (InstanceAlive) and took over the bots of one silent
 * for 15 minutes; workers now hold a heartbeat lease instead (issue 19). The events still decode.
 */
/** How often a running instance said it was alive. */
export const ALIVE_EVERY_MS = 5 * 60 * 1000;

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

