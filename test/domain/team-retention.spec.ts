import assert from 'node:assert/strict';
import { DEFAULT_RETENTION_DAYS } from '../../src/domain/bot/bot-config';
import { teamDecider, type TeamCommand } from '../../src/domain/team/team-decider';
import { TeamEvent } from '../../src/domain/team/team-events';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(teamDecider, TeamEvent);

const TEAM = 'team-0001';
const T0 = '2026-03-03T09:00:00.000Z';
const NOW = at(T0, { h: 1 });

const teamCreated: TeamEvent = { type: 'TeamCreated', data: { team_id: TEAM, name: 'Acme', daily_bot_cap: 75, rate_limit_per_second: 10, at: T0 } };
const setRetention = (retention_days: number): TeamCommand => ({ type: 'SetRetention', retention_days, now: NOW });
const retentionSet = (retention_days: number): TeamEvent => ({ type: 'RetentionSet', data: { team_id: TEAM, retention_days, at: NOW } });

describe('team decider: artifact retention', () => {
  it('a new team keeps artifacts 7 days', () => {
    const state = stateAfter(teamDecider, [teamCreated]);
    assert.ok(state.kind === 'present');
    assert.equal(state.retention_days, DEFAULT_RETENTION_DAYS);
    assert.equal(DEFAULT_RETENTION_DAYS, 7);
  });

  it('setting another number of days records it', () => spec.given([teamCreated]).when(setRetention(30)).then([retentionSet(30)]));

  it('setting the days it already has records nothing', () => {
    spec.given([teamCreated]).when(setRetention(7)).thenNothing();
    spec.given([teamCreated, retentionSet(30)]).when(setRetention(30)).thenNothing();
  });

  it('from 1 day to 10 years, whole days only', () => {
    spec.given([teamCreated]).when(setRetention(1)).then([retentionSet(1)]);
    spec.given([teamCreated]).when(setRetention(3650)).then([retentionSet(3650)]);
    for (const days of [0, -1, 3651, 1.5, Number.NaN]) spec.given([teamCreated]).when(setRetention(days)).thenRejects({ code: 'INVALID_RETENTION' });
  });

  it('an unknown team is refused', () => spec.given([]).when(setRetention(30)).thenRejects({ code: 'TEAM_NOT_FOUND' }));
});
