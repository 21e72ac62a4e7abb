import assert from 'node:assert/strict';
import { teamDecider, type TeamCommand } from '../../src/domain/team/team-decider';
import { TeamEvent } from '../../src/domain/team/team-events';
import { allowsOneMore, DEFAULT_TEAM_LIMITS, type TeamLimits } from '../../src/domain/team/team-limits';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(teamDecider, TeamEvent);

const TEAM = 'team-0001';
const T0 = '2026-03-03T09:00:00.000Z';
const NOW = at(T0, { h: 1 });

const teamCreated: TeamEvent = { type: 'TeamCreated', data: { team_id: TEAM, name: 'Acme', daily_bot_cap: 75, rate_limit_per_second: 10, at: T0 } };
const setLimits = (limits: Partial<TeamLimits>): TeamCommand => ({ type: 'SetLimits', limits, now: NOW });
const limitsSet = (limits: TeamLimits): TeamEvent => ({ type: 'TeamLimitsSet', data: { team_id: TEAM, limits, at: NOW } });

describe('team decider: limits of what a team holds at once', () => {
  it('a new team has the default limits: 5 000 scheduled bots, 20 webhook endpoints, 500 calendars', () => {
    const state = stateAfter(teamDecider, [teamCreated]);
    assert.ok(state.kind === 'present');
    assert.deepEqual(state.limits, { scheduled_bots: 5_000, webhook_endpoints: 20, calendars: 500 });
    assert.deepEqual(state.limits, DEFAULT_TEAM_LIMITS);
  });

  it('given a team, when some limits are set, then the event holds all of them, the others unchanged', () => {
    spec.given([teamCreated]).when(setLimits({ webhook_endpoints: 3 })).then([limitsSet({ ...DEFAULT_TEAM_LIMITS, webhook_endpoints: 3 })]);
    const raised = limitsSet({ scheduled_bots: 10, webhook_endpoints: 3, calendars: 500 });
    spec.given([teamCreated, limitsSet({ ...DEFAULT_TEAM_LIMITS, webhook_endpoints: 3 })]).when(setLimits({ scheduled_bots: 10 })).then([raised]);
  });

  it('setting the limits it already has records nothing', () => {
    spec.given([teamCreated]).when(setLimits({ calendars: 500 })).thenNothing();
    spec.given([teamCreated]).when(setLimits({})).thenNothing();
  });

  it('from 0 (none allowed) to a million, whole numbers only; an unknown team is refused', () => {
    spec.given([teamCreated]).when(setLimits({ calendars: 0 })).then([limitsSet({ ...DEFAULT_TEAM_LIMITS, calendars: 0 })]);
    for (const bad of [-1, 1_000_001, 2.5, Number.NaN]) spec.given([teamCreated]).when(setLimits({ calendars: bad })).thenRejects({ code: 'INVALID_LIMIT' });
    spec.given([]).when(setLimits({ calendars: 1 })).thenRejects({ code: 'TEAM_NOT_FOUND' });
  });

  it('one more is allowed below the limit, not at it', () => {
    const limits = { ...DEFAULT_TEAM_LIMITS, webhook_endpoints: 2 };
    assert.equal(allowsOneMore(limits, 'webhook_endpoints', 1), true);
    assert.equal(allowsOneMore(limits, 'webhook_endpoints', 2), false);
    assert.equal(allowsOneMore({ ...limits, calendars: 0 }, 'calendars', 0), false);
  });
});
