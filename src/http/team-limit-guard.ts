import type { ReadStore } from '../adapters/read-store/port';
import { KeyedMutex } from '../commands/keyed-mutex';
import { allowsOneMore, teamLimitWhat, type TeamLimitName } from '../domain/team/team-limits';
import { limitsOf, TEAMS, type TeamView } from '../projections/team-view';
import { ApiError } from './api-error';

/** One check-and-make at a time per team and limit in this process: two requests never both take the last place. */
const guards = new KeyedMutex();

export const teamLimitReached = (name: TeamLimitName, limit: number): ApiError =>
  new ApiError({
    status: 409,
    code: 'FST_ERR_TEAM_LIMIT_REACHED',
    message: `The team's limit of ${limit} ${teamLimitWhat[name]} is reached (${name})`,
    details: `${name}: ${limit}. Remove one first, or ask for a higher limit.`,
  });

/**
 * Makes one more of what a team limit counts, if the team holds fewer than its limit: `held` counts them
 * on the read models, and `make` must answer only once the read models show the new one (so that the next
 * request counts it). Several instances may each let one request past the limit at the same moment.
 */
export const withinTeamLimit = async <T>(
  readStore: ReadStore,
  teamId: string,
  name: TeamLimitName,
  held: () => Promise<number>,
  make: () => Promise<T>,
): Promise<T> =>
  guards.run(`${teamId}/${name}`, async () => {
    const limit = limitsOf((await readStore.get<TeamView>(TEAMS, teamId))?.doc)[name];
    if (!allowsOneMore({ [name]: limit } as Record<TeamLimitName, number>, name, await held())) throw teamLimitReached(name, limit);
    return make();
  });
