import * as t from 'io-ts';

/**
 * How much of the shared service one team may hold at once, so that no team can crowd out the others:
 * scheduled bots waiting for their time, webhook endpoints, connected calendars. Part of the team's plan,
 * set by the operator (admin API and CLI); a request that would go past one is refused, naming it.
 */
export const TeamLimits = t.type({ scheduled_bots: t.number, webhook_endpoints: t.number, calendars: t.number });
export type TeamLimits = t.TypeOf<typeof TeamLimits>;
export type TeamLimitName = keyof TeamLimits;

/**
 * Generous for one organisation: a calendar per person of a large company, a scheduled bot for every
 * meeting of a few months of them, as many endpoints as Stripe allows (16) and a few more.
 */
export const DEFAULT_TEAM_LIMITS: TeamLimits = { scheduled_bots: 5_000, webhook_endpoints: 20, calendars: 500 };
export const MAX_TEAM_LIMIT = 1_000_000;

export const teamLimitNames: readonly TeamLimitName[] = ['scheduled_bots', 'webhook_endpoints', 'calendars'];

/** What each limit counts, in words for a refusal. */
export const teamLimitWhat: Readonly<Record<TeamLimitName, string>> = {
  scheduled_bots: 'scheduled bots waiting for their time',
  webhook_endpoints: 'webhook endpoints',
  calendars: 'connected calendars',
};

/** A limit is a whole number from 0 (none allowed) to MAX_TEAM_LIMIT. */
export const isValidTeamLimit = (value: number): boolean => Number.isSafeInteger(value) && value >= 0 && value <= MAX_TEAM_LIMIT;

/** Whether a team holding `held` may have one more. */
export const allowsOneMore = (limits: TeamLimits, name: TeamLimitName, held: number): boolean => held < limits[name];
