import * as E from 'fp-ts/Either';
import type { Decider, SnapshotCodec } from '../decider';
import { toMillis } from '../codec-helpers';
import { DEFAULT_RETENTION_DAYS } from '../bot/bot-config';
import type { Usage } from '../bot/bot-events';
import { chargeForOutcome, type BotFeatures } from './charge-by-outcome';
import type { Permission, ReleaseReason, TeamEvent } from './team-events';
import { DEFAULT_TEAM_LIMITS, isValidTeamLimit, MAX_TEAM_LIMIT, teamLimitNames, type TeamLimits } from './team-limits';
import { PersistentMap } from '../persistent/persistent-map';
import { TimeWindow } from '../persistent/time-window';
import { RESERVATION_PER_BOT } from './token-prices';

export const DAILY_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Retention: at least a day (links last 2 hours), at most ten years. */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;

export type TeamCommand =
  | {
      readonly type: 'CreateTeam';
      readonly team_id: string;
      readonly name: string;
      readonly daily_bot_cap: number;
      readonly rate_limit_per_second: number;
      readonly initial_tokens: number;
      readonly now: string;
    }
  | { readonly type: 'IssueApiKey'; readonly key_id: string; readonly key_hash: string; readonly permission: Permission; readonly now: string }
  | { readonly type: 'RevokeApiKey'; readonly key_id: string; readonly now: string }
  | { readonly type: 'AddTokens'; readonly operation_id: string; readonly amount: number; readonly now: string }
  | { readonly type: 'ReserveTokensForBot'; readonly bot_id: string; readonly now: string }
  | { readonly type: 'ReleaseReservation'; readonly bot_id: string; readonly reason: ReleaseReason; readonly now: string }
  | { readonly type: 'SetRetention'; readonly retention_days: number; readonly now: string }
  /** the limits given change, the others stay */
  | { readonly type: 'SetLimits'; readonly limits: Partial<TeamLimits>; readonly now: string }
  | {
      readonly type: 'ChargeBot';
      readonly bot_id: string;
      readonly error_code: string;
      readonly usage: Usage;
      readonly features: BotFeatures;
      readonly now: string;
    };

export type TeamRejection =
  | { readonly code: 'TEAM_NOT_FOUND'; readonly message: string }
  | { readonly code: 'TEAM_EXISTS'; readonly message: string }
  | { readonly code: 'API_KEY_NOT_FOUND'; readonly message: string }
  | { readonly code: 'INVALID_AMOUNT'; readonly message: string }
  | { readonly code: 'INVALID_RETENTION'; readonly message: string }
  | { readonly code: 'INVALID_LIMIT'; readonly message: string }
  | { readonly code: 'DAILY_BOT_CAP_REACHED'; readonly message: string; readonly retry_after_seconds: number }
  | { readonly code: 'INSUFFICIENT_TOKENS'; readonly message: string; readonly available: number; readonly required: number };

interface Creation {
  readonly bot_id: string;
  readonly at_ms: number;
}

export type TeamState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly team_id: string;
      readonly name: string;
      readonly daily_bot_cap: number;
      readonly rate_limit_per_second: number;
      /** credited minus charged, in thousandths; may go below zero when a long bot costs more than was left */
      readonly balance: number;
      /** open reservations by bot id, and their sum (kept, not recounted: a busy team has thousands) */
      readonly reservations: PersistentMap<number>;
      readonly reservedTotal: number;
      /** bots created in the last 24 h of the ledger's own history, by time (older ones are forgotten) */
      readonly recentCreations: TimeWindow<Creation>;
      readonly apiKeys: Readonly<Record<string, { readonly key_hash: string; readonly permission: Permission; readonly revoked: boolean }>>;
      readonly operationIds: readonly string[];
      /** days artifacts are kept after their bot ends; fixed into each bot at its creation */
      readonly retention_days: number;
      readonly limits: TeamLimits;
    };

type Present = Extract<TeamState, { kind: 'present' }>;

const initialState = (): TeamState => ({ kind: 'absent' });

const reject = (rejection: TeamRejection) => E.left<TeamRejection, readonly TeamEvent[]>(rejection);
const emit = (...events: TeamEvent[]) => E.right<TeamRejection, readonly TeamEvent[]>(events);
const noEvents = emit();

export const reservedTotal = (state: Present): number => state.reservedTotal;

export const availableTokens = (state: Present): number => state.balance - state.reservedTotal;

/**
 * Creations stamped after `nowMs` count too: they were decided by a process whose clock ran ahead, or
 * they won the race this command is retrying after, and ignoring them would let a bot past the cap.
 */
export const botCountWithin24h = (state: Present, nowMs: number): number => state.recentCreations.countAfter(nowMs - DAILY_CAP_WINDOW_MS);

const isPositiveInteger = (n: number) => Number.isSafeInteger(n) && n > 0;

const reserveTokensForBot = (state: Present, command: Extract<TeamCommand, { type: 'ReserveTokensForBot' }>) => {
  const { bot_id, now } = command;
  // A retried reservation finds its bot still open or among the day's creations (bot ids are never reused).
  if (state.reservations.has(bot_id) || state.recentCreations.has(bot_id)) return noEvents;
  const nowMs = toMillis(now);
  // The spec checks the daily cap before the token reservation.
  if (botCountWithin24h(state, nowMs) >= state.daily_bot_cap) {
    // A cap of 0 (empty window) waits a finite 24 h from now, not Infinity.
    const oldest = state.recentCreations.firstAfter(nowMs - DAILY_CAP_WINDOW_MS)?.at_ms ?? nowMs;
    return reject({
      code: 'DAILY_BOT_CAP_REACHED',
      message: `Daily bot cap of ${state.daily_bot_cap} reached`,
      retry_after_seconds: Math.max(1, Math.ceil((oldest + DAILY_CAP_WINDOW_MS - nowMs) / 1000)),
    });
  }
  const available = availableTokens(state);
  if (available < RESERVATION_PER_BOT) {
    return reject({
      code: 'INSUFFICIENT_TOKENS',
      message: 'Insufficient tokens to reserve for a new bot',
      available,
      required: RESERVATION_PER_BOT,
    });
  }
  return emit({ type: 'TokensReserved', data: { team_id: state.team_id, bot_id, amount: RESERVATION_PER_BOT, at: now } });
};

const decide = (command: TeamCommand, state: TeamState) => {
  if (command.type === 'CreateTeam') {
    if (state.kind === 'present') return reject({ code: 'TEAM_EXISTS', message: `Team ${command.team_id} already exists` });
    if (!Number.isSafeInteger(command.initial_tokens) || command.initial_tokens < 0) {
      return reject({ code: 'INVALID_AMOUNT', message: 'Initial tokens must be a whole number of thousandths, at least 0' });
    }
    const { team_id, name, daily_bot_cap, rate_limit_per_second, now } = command;
    const created: TeamEvent = { type: 'TeamCreated', data: { team_id, name, daily_bot_cap, rate_limit_per_second, at: now } };
    if (command.initial_tokens === 0) return emit(created);
    return emit(created, { type: 'TokensAdded', data: { team_id, operation_id: `initial-${team_id}`, amount: command.initial_tokens, at: now } });
  }
  if (state.kind === 'absent') return reject({ code: 'TEAM_NOT_FOUND', message: 'Team not found' });
  const team_id = state.team_id;

  switch (command.type) {
    case 'IssueApiKey':
      if (command.key_id in state.apiKeys) return noEvents;
      return emit({
        type: 'ApiKeyIssued',
        data: { team_id, key_id: command.key_id, key_hash: command.key_hash, permission: command.permission, at: command.now },
      });
    case 'RevokeApiKey': {
      const key = state.apiKeys[command.key_id];
      if (!key) return reject({ code: 'API_KEY_NOT_FOUND', message: 'API key not found' });
      return key.revoked
        ? noEvents
        : emit({ type: 'ApiKeyRevoked', data: { team_id, key_id: command.key_id, key_hash: key.key_hash, at: command.now } });
    }
    case 'AddTokens':
      if (!isPositiveInteger(command.amount)) {
        return reject({ code: 'INVALID_AMOUNT', message: 'Amount must be a positive whole number of thousandths' });
      }
      if (state.operationIds.includes(command.operation_id)) return noEvents;
      return emit({ type: 'TokensAdded', data: { team_id, operation_id: command.operation_id, amount: command.amount, at: command.now } });
    case 'ReserveTokensForBot':
      return reserveTokensForBot(state, command);
    case 'SetRetention':
      if (!Number.isSafeInteger(command.retention_days) || command.retention_days < MIN_RETENTION_DAYS || command.retention_days > MAX_RETENTION_DAYS) {
        return reject({ code: 'INVALID_RETENTION', message: `Retention must be a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}` });
      }
      if (command.retention_days === state.retention_days) return noEvents;
      return emit({ type: 'RetentionSet', data: { team_id, retention_days: command.retention_days, at: command.now } });
    case 'SetLimits': {
      const invalid = teamLimitNames.find((name) => command.limits[name] !== undefined && !isValidTeamLimit(command.limits[name]!));
      if (invalid !== undefined) return reject({ code: 'INVALID_LIMIT', message: `${invalid} must be a whole number from 0 to ${MAX_TEAM_LIMIT}` });
      const limits = { ...state.limits, ...command.limits };
      if (teamLimitNames.every((name) => limits[name] === state.limits[name])) return noEvents;
      return emit({ type: 'TeamLimitsSet', data: { team_id, limits, at: command.now } });
    }
    case 'ReleaseReservation': {
      const amount = state.reservations.get(command.bot_id);
      if (amount === undefined) return noEvents;
      return emit({ type: 'TokensReleased', data: { team_id, bot_id: command.bot_id, amount, reason: command.reason, at: command.now } });
    }
    case 'ChargeBot': {
      const reserved = state.reservations.get(command.bot_id);
      if (reserved === undefined) return noEvents;
      const amount = chargeForOutcome({ error_code: command.error_code, usage: command.usage }, command.features);
      if (amount === 0) {
        return emit({ type: 'TokensReleased', data: { team_id, bot_id: command.bot_id, amount: reserved, reason: 'nothing_to_charge', at: command.now } });
      }
      return emit({ type: 'TokensCharged', data: { team_id, bot_id: command.bot_id, amount, error_code: command.error_code, at: command.now } });
    }
  }
};

const withoutReservation = (state: Present, botId: string): Present => {
  const amount = state.reservations.get(botId);
  if (amount === undefined) return state;
  return { ...state, reservations: state.reservations.delete(botId), reservedTotal: state.reservedTotal - amount };
};

const evolve = (state: TeamState, event: TeamEvent): TeamState => {
  if (event.type === 'TeamCreated') {
    return {
      kind: 'present',
      team_id: event.data.team_id,
      name: event.data.name,
      daily_bot_cap: event.data.daily_bot_cap,
      rate_limit_per_second: event.data.rate_limit_per_second,
      balance: 0,
      reservations: PersistentMap.empty(),
      reservedTotal: 0,
      recentCreations: TimeWindow.empty(),
      apiKeys: {},
      operationIds: [],
      retention_days: DEFAULT_RETENTION_DAYS,
      limits: DEFAULT_TEAM_LIMITS,
    };
  }
  if (state.kind === 'absent') return state;
  switch (event.type) {
    case 'ApiKeyIssued':
      return { ...state, apiKeys: { ...state.apiKeys, [event.data.key_id]: { key_hash: event.data.key_hash, permission: event.data.permission, revoked: false } } };
    case 'ApiKeyRevoked': {
      const key = state.apiKeys[event.data.key_id];
      return key ? { ...state, apiKeys: { ...state.apiKeys, [event.data.key_id]: { ...key, revoked: true } } } : state;
    }
    case 'TokensAdded':
      return { ...state, balance: state.balance + event.data.amount, operationIds: [...state.operationIds, event.data.operation_id] };
    case 'TokensReserved': {
      const atMs = toMillis(event.data.at);
      return {
        ...state,
        reservations: state.reservations.set(event.data.bot_id, event.data.amount),
        reservedTotal: state.reservedTotal + event.data.amount,
        // In time order even when another process's clock ran a little behind.
        recentCreations: state.recentCreations.forgetUpTo(atMs - DAILY_CAP_WINDOW_MS).add({ bot_id: event.data.bot_id, at_ms: atMs }),
      };
    }
    case 'RetentionSet':
      return { ...state, retention_days: event.data.retention_days };
    case 'TeamLimitsSet':
      return { ...state, limits: event.data.limits };
    case 'TokensCharged':
      return { ...withoutReservation(state, event.data.bot_id), balance: state.balance - event.data.amount };
    case 'TokensReleased': {
      const released = withoutReservation(state, event.data.bot_id);
      // A bot whose creation was aborted never existed: it does not count towards the daily cap.
      return event.data.reason === 'creation_aborted'
        ? { ...released, recentCreations: released.recentCreations.remove(event.data.bot_id) }
        : released;
    }
  }
};

/** A ledger grows by two events per bot, forever: its state is snapshotted, the collections as arrays. */
const snapshot: SnapshotCodec<TeamState> = {
  version: 1,
  encode: (state) => (state.kind === 'absent' ? state : { ...state, reservations: [...state.reservations], recentCreations: [...state.recentCreations] }),
  decode: (json) => {
    const stored = json as TeamState | (Omit<Present, 'reservations' | 'recentCreations'> & { reservations: unknown; recentCreations: unknown });
    if (stored.kind === 'absent') return { kind: 'absent' };
    if (stored.kind !== 'present' || !Array.isArray(stored.reservations) || !Array.isArray(stored.recentCreations)) throw new Error('not a snapshot of a team ledger');
    return {
      ...stored,
      reservations: PersistentMap.of(stored.reservations as [string, number][]),
      recentCreations: TimeWindow.of(stored.recentCreations as Creation[]),
    };
  },
};

export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState, TeamRejection> = { decide, evolve, initialState, snapshot };
