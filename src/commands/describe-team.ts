import { availableTokens, botCountWithin24h, reservedTotal } from '../domain/team/team-decider';
import type { CommandDeps } from './command-deps';
import { loadTeam } from './team-commands';

const asTokens = (thousandths: number): number => thousandths / 1000;

/** The ledger as an operator sees it, folded from the team stream itself (always current). */
export const describeTeam = async (deps: Pick<CommandDeps, 'eventStore' | 'clock'>, teamId: string) => {
  const team = await loadTeam(deps, teamId);
  if (team.kind === 'absent') return null;
  const nowMs = deps.clock().getTime();
  return {
    team_id: team.team_id,
    name: team.name,
    balance: asTokens(team.balance),
    reserved: asTokens(reservedTotal(team)),
    available: asTokens(availableTokens(team)),
    bots_last_24h: botCountWithin24h(team, nowMs),
    daily_bot_cap: team.daily_bot_cap,
    rate_limit_per_second: team.rate_limit_per_second,
    retention_days: team.retention_days,
    limits: team.limits,
    api_keys: Object.entries(team.apiKeys).map(([key_id, key]) => ({ key_id, permission: key.permission, revoked: key.revoked })),
  };
};
