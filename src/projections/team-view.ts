import type { Projection } from './projection';

/** The plan settings the HTTP layer needs on every request (rate limit). */
export type TeamView = {
  readonly id: string;
  readonly name: string;
  readonly daily_bot_cap: number;
  readonly rate_limit_per_second: number;
  readonly created_at: string;
};

export const TEAMS = 'teams';

export const teamViewProjection: Projection<TeamView> = {
  collection: TEAMS,
  documentId: (event) => (event.type === 'TeamCreated' ? event.data.team_id : null),
  evolve: (_doc, event) => {
    if (event.type !== 'TeamCreated') return null;
    const { team_id, name, daily_bot_cap, rate_limit_per_second, at } = event.data;
    return { id: team_id, name, daily_bot_cap, rate_limit_per_second, created_at: at };
  },
};
