import { DEFAULT_TEAM_LIMITS, type TeamLimits } from '../domain/team/team-limits';
import type { Projection } from './projection';

/** The plan settings the HTTP layer needs on every request (rate limit, limits). */
export type TeamView = {
  readonly id: string;
  readonly name: string;
  readonly daily_bot_cap: number;
  readonly rate_limit_per_second: number;
  /** absent in documents written before limits existed: the defaults */
  readonly limits?: TeamLimits;
  readonly created_at: string;
};

export const TEAMS = 'teams';

/** The team's limits as its read model has them. */
export const limitsOf = (team: TeamView | undefined): TeamLimits => team?.limits ?? DEFAULT_TEAM_LIMITS;

export const teamViewProjection: Projection<TeamView> = {
  collection: TEAMS,
  documentId: (event) => (event.type === 'TeamCreated' || event.type === 'TeamLimitsSet' ? event.data.team_id : null),
  evolve: (doc, event) => {
    if (event.type === 'TeamCreated') {
      const { team_id, name, daily_bot_cap, rate_limit_per_second, at } = event.data;
      return { id: team_id, name, daily_bot_cap, rate_limit_per_second, limits: DEFAULT_TEAM_LIMITS, created_at: at };
    }
    if (event.type === 'TeamLimitsSet' && doc !== null) return { ...doc, limits: event.data.limits };
    return null;
  },
};
