import * as E from 'fp-ts/Either';
import type { Decider } from '../decider';
import type { LoginPlatform } from './login-platform';
import type { PoolEvent } from './pool-events';

/** No matching login could take the bot: the fact is recorded (a retry for the same bot records nothing more). */
export interface RecordSaturation {
  readonly type: 'RecordSaturation';
  readonly team_id: string;
  readonly platform: LoginPlatform;
  readonly bot_id: string;
  readonly credential_id: string | null;
  readonly email_group: string | null;
  readonly fallback: 'fail' | 'anonymous';
  readonly logins: number;
  readonly logins_active: number;
  readonly now: string;
}

/** A retry of a bot's request comes within seconds: the last saturations are enough to recognise it. */
export const REMEMBERED_SATURATIONS = 100;

export interface PoolState {
  /** the bots of the last saturations recorded, newest last */
  readonly recentBots: readonly string[];
}

const decide = (command: RecordSaturation, state: PoolState) => {
  if (state.recentBots.includes(command.bot_id)) return E.right<never, readonly PoolEvent[]>([]);
  const { type: _type, now, ...data } = command;
  return E.right<never, readonly PoolEvent[]>([{ type: 'LoginSaturated', data: { ...data, at: now } }]);
};

const evolve = (state: PoolState, event: PoolEvent): PoolState => ({ recentBots: [...state.recentBots, event.data.bot_id].slice(-REMEMBERED_SATURATIONS) });

export const poolDecider: Decider<RecordSaturation, PoolEvent, PoolState, never> = { decide, evolve, initialState: () => ({ recentBots: [] }) };
