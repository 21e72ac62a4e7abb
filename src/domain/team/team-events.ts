import * as t from 'io-ts';
import { eventCodec, IsoInstant, TokenAmount } from '../codec-helpers';
import { TeamLimits } from './team-limits';

export const Permission = t.keyof({ full: null, sending: null });
export type Permission = t.TypeOf<typeof Permission>;

export const TeamCreated = eventCodec('TeamCreated', {
  team_id: t.string,
  name: t.string,
  daily_bot_cap: t.number,
  rate_limit_per_second: t.number,
  at: IsoInstant,
});

/** Only the key's hash is stored: the key itself is shown once, when issued. */
export const ApiKeyIssued = eventCodec('ApiKeyIssued', {
  team_id: t.string,
  key_id: t.string,
  key_hash: t.string,
  permission: Permission,
  at: IsoInstant,
});

export const ApiKeyRevoked = eventCodec('ApiKeyRevoked', { team_id: t.string, key_id: t.string, key_hash: t.string, at: IsoInstant });

export const TokensAdded = eventCodec('TokensAdded', { team_id: t.string, operation_id: t.string, amount: TokenAmount, at: IsoInstant });

export const TokensReserved = eventCodec('TokensReserved', { team_id: t.string, bot_id: t.string, amount: TokenAmount, at: IsoInstant });

/** Settles a reservation: the reservation is freed and `amount` is taken from the balance. */
export const TokensCharged = eventCodec('TokensCharged', {
  team_id: t.string,
  bot_id: t.string,
  amount: TokenAmount,
  error_code: t.string,
  at: IsoInstant,
});

export const ReleaseReason = t.keyof({ creation_aborted: null, nothing_to_charge: null });
export type ReleaseReason = t.TypeOf<typeof ReleaseReason>;

export const TokensReleased = eventCodec('TokensReleased', {
  team_id: t.string,
  bot_id: t.string,
  amount: TokenAmount,
  reason: ReleaseReason,
  at: IsoInstant,
});

/** How many days the artifacts of the team's bots created from now on are kept after each bot ends. */
export const RetentionSet = eventCodec('RetentionSet', { team_id: t.string, retention_days: t.number, at: IsoInstant });

/** The team's limits from now on, all of them (team-limits.ts); what it holds beyond a lowered one stays. */
export const TeamLimitsSet = eventCodec('TeamLimitsSet', { team_id: t.string, limits: TeamLimits, at: IsoInstant });

export const TeamEvent = t.union([
  TeamCreated, ApiKeyIssued, ApiKeyRevoked, TokensAdded, TokensReserved, TokensCharged, TokensReleased, RetentionSet, TeamLimitsSet,
]);
export type TeamEvent = t.TypeOf<typeof TeamEvent>;

export const teamStreamName = (teamId: string): string => `team-${teamId}`;
