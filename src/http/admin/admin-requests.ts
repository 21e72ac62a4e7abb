import { DEFAULT_RETENTION_DAYS } from '../../domain/bot/bot-config';
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../../domain/team/team-decider';
import { MAX_TEAM_LIMIT, teamLimitNames, type TeamLimits } from '../../domain/team/team-limits';
import { validationError } from '../api-error';

/** Admin bodies are few and flat; each field is checked by hand so that the error names it. */
const isObject = (body: unknown): body is Record<string, unknown> => typeof body === 'object' && body !== null && !Array.isArray(body);

const requireObject = (body: unknown): Record<string, unknown> => {
  if (!isObject(body)) throw validationError('body', 'must be a JSON object');
  return body;
};

const rejectUnknown = (body: Record<string, unknown>, known: readonly string[]) => {
  const unknown = Object.keys(body).find((k) => !known.includes(k));
  if (unknown !== undefined) throw validationError(`body/${unknown}`, 'is not a known field');
};

const integerIn = (body: Record<string, unknown>, field: string, min: number, max: number, fallback: number): number => {
  const value = body[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw validationError(`body/${field}`, `must be an integer from ${min} to ${max}`);
  }
  return value;
};

/** Tokens are given in tokens (up to three decimals) and kept in thousandths. */
const tokensIn = (body: Record<string, unknown>, field: string, allowZero: boolean, fallback?: number): number => {
  const value = body[field];
  if (value === undefined && fallback !== undefined) return fallback;
  const thousandths = typeof value === 'number' ? Math.round(value * 1000) : NaN;
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(thousandths) ||
    Math.abs(thousandths - value * 1000) > 1e-6 ||
    thousandths < (allowZero ? 0 : 1) ||
    value > 1_000_000_000
  ) {
    throw validationError(`body/${field}`, `must be a number of tokens ${allowZero ? 'from 0' : 'above 0'} with at most three decimals`);
  }
  return thousandths;
};

export const DEFAULT_DAILY_BOT_CAP = 75;
export const DEFAULT_RATE_LIMIT_PER_SECOND = 10;

export const decodeCreateTeam = (raw: unknown) => {
  const body = requireObject(raw);
  rejectUnknown(body, ['name', 'tokens', 'daily_bot_cap', 'rate_limit_per_second']);
  if (typeof body.name !== 'string' || body.name.trim().length === 0 || body.name.length > 200) {
    throw validationError('body/name', 'must be a non-empty string of at most 200 characters');
  }
  return {
    name: body.name,
    initial_tokens: tokensIn(body, 'tokens', true, 0),
    daily_bot_cap: integerIn(body, 'daily_bot_cap', 0, 1_000_000, DEFAULT_DAILY_BOT_CAP),
    rate_limit_per_second: integerIn(body, 'rate_limit_per_second', 1, 100_000, DEFAULT_RATE_LIMIT_PER_SECOND),
  };
};

export const decodeIssueKey = (raw: unknown): { permission: 'full' | 'sending' } => {
  const body = requireObject(raw ?? {});
  rejectUnknown(body, ['permission']);
  const permission = body.permission ?? 'full';
  if (permission !== 'full' && permission !== 'sending') throw validationError('body/permission', 'must be "full" or "sending"');
  return { permission };
};

export const decodeAddTokens = (raw: unknown): { amount: number } => {
  const body = requireObject(raw);
  rejectUnknown(body, ['amount']);
  return { amount: tokensIn(body, 'amount', false) };
};


/** `PUT /admin/teams/{id}/retention`: days the artifacts of the team's bots created from now on are kept. */
export const decodeSetRetention = (raw: unknown): { retention_days: number } => {
  const body = requireObject(raw);
  rejectUnknown(body, ['retention_days']);
  if (body.retention_days === undefined) throw validationError('body/retention_days', 'is required');
  return { retention_days: integerIn(body, 'retention_days', MIN_RETENTION_DAYS, MAX_RETENTION_DAYS, DEFAULT_RETENTION_DAYS) };
};

/** `PUT /admin/teams/{id}/limits`: the limits given change (at least one), the others stay. */
export const decodeSetLimits = (raw: unknown): { limits: Partial<TeamLimits> } => {
  const body = requireObject(raw);
  rejectUnknown(body, teamLimitNames);
  const given = teamLimitNames.filter((name) => body[name] !== undefined);
  if (given.length === 0) throw validationError('body', `must give at least one of ${teamLimitNames.join(', ')}`);
  return { limits: Object.fromEntries(given.map((name) => [name, integerIn(body, name, 0, MAX_TEAM_LIMIT, 0)])) };
};
