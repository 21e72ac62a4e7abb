import { createHash, randomBytes } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { teamDecider, type TeamCommand, type TeamRejection, type TeamState } from '../domain/team/team-decider';
import { TeamEvent, teamStreamName, type Permission } from '../domain/team/team-events';
import { nowIso, type CommandDeps } from './command-deps';
import { handleCommand, loadState, type Handled } from './handle-command';

export type TeamCommandResult = E.Either<TeamRejection, Handled<TeamEvent, TeamState>>;

export const handleTeamCommand = (deps: Pick<CommandDeps, 'eventStore'>, teamId: string, command: TeamCommand): Promise<TeamCommandResult> =>
  handleCommand(deps.eventStore, teamStreamName(teamId), teamDecider, TeamEvent, command);

export const loadTeam = (deps: Pick<CommandDeps, 'eventStore'>, teamId: string): Promise<TeamState> =>
  loadState(deps.eventStore, teamStreamName(teamId), teamDecider, TeamEvent);

/** Keys are looked up by this hash; the key itself is never stored. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey).digest('hex');

/** A random key; the prefix makes a leaked key easy to recognise in a secret scanner. */
export const generateApiKey = (): string => `mbs_${randomBytes(32).toString('base64url')}`;

export interface IssuedKey {
  readonly key_id: string;
  readonly api_key: string;
  readonly position: bigint | null;
}

export const issueApiKey = async (
  deps: CommandDeps,
  teamId: string,
  permission: Permission,
): Promise<E.Either<TeamRejection, IssuedKey>> => {
  const api_key = generateApiKey();
  const key_id = deps.newId();
  const result = await handleTeamCommand(deps, teamId, { type: 'IssueApiKey', key_id, key_hash: hashApiKey(api_key), permission, now: nowIso(deps) });
  return E.map((handled: Handled<TeamEvent, TeamState>) => ({ key_id, api_key, position: handled.position }))(result);
};

export interface NewTeam {
  readonly name: string;
  readonly initial_tokens: number;
  readonly daily_bot_cap: number;
  readonly rate_limit_per_second: number;
}

export const createTeamWithKey = async (
  deps: CommandDeps,
  team: NewTeam,
): Promise<E.Either<TeamRejection, { team_id: string; key_id: string; api_key: string; position: bigint | null }>> => {
  const team_id = deps.newId();
  const created = await handleTeamCommand(deps, team_id, { type: 'CreateTeam', team_id, ...team, now: nowIso(deps) });
  if (E.isLeft(created)) return created;
  const key = await issueApiKey(deps, team_id, 'full');
  return E.map((issued: IssuedKey) => ({ team_id, ...issued }))(key);
};
