import * as E from 'fp-ts/Either';
import { type ApiError, validationError } from '../api-error';
import type { RawQuery } from './list-query';

/**
 * Reading the legacy endpoints' query strings: every parameter at most once, none unknown, each at most
 * 2048 characters, and an empty value (`bot_name=`) read as not given.
 */
export const MAX_QUERY_VALUE_LENGTH = 2048;

export const singleValues = (query: RawQuery, allowed: readonly string[]): E.Either<ApiError, Readonly<Record<string, string>>> => {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) return E.left(validationError(`querystring/${name}`, `is not an allowed parameter (allowed: ${allowed.join(', ')})`));
    if (value === undefined) continue;
    if (typeof value !== 'string') return E.left(validationError(`querystring/${name}`, 'must be given at most once'));
    if (value.length > MAX_QUERY_VALUE_LENGTH) return E.left(validationError(`querystring/${name}`, `must NOT have more than ${MAX_QUERY_VALUE_LENGTH} characters`));
    if (value !== '') values[name] = value;
  }
  return E.right(values);
};

/** `true` or `false`, as written in a URL. */
export const queryBoolean = (name: string, value: string | undefined, fallback: boolean): E.Either<ApiError, boolean> => {
  if (value === undefined) return E.right(fallback);
  if (value === 'true' || value === 'false') return E.right(value === 'true');
  return E.left(validationError(`querystring/${name}`, 'must be true or false'));
};

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A query date-time as the OpenAPI document states it (the calendar also checks it is a real date). */
export const QUERY_DATE_TIME_SCHEMA = {
  type: 'string',
  pattern: DATE_TIME.source,
  maxLength: MAX_QUERY_VALUE_LENGTH,
  description: 'An ISO 8601 date-time such as 2025-03-03T09:00:00; UTC when no zone is given.',
} as const;

export type Rounding = 'up' | 'down';

/**
 * An ISO 8601 date-time, as the instant the service stores (`toISOString()`, milliseconds). Without a
 * zone it is UTC, the service's own times; with `Z` or an offset, that offset. Digits beyond the
 * millisecond round towards the inside of the bound (`up` for a lower bound, `down` for an upper one), so
 * that inclusive bounds stay exact at the stored precision.
 */
export const queryDateTime = (name: string, value: string | undefined, rounding: Rounding): E.Either<ApiError, string | undefined> => {
  if (value === undefined) return E.right(undefined);
  const invalid = E.left(validationError(`querystring/${name}`, 'must be an ISO 8601 date-time such as 2025-03-03T09:00:00 (UTC when no zone is given)'));
  const m = DATE_TIME.exec(value);
  if (!m) return invalid;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const fraction = (m[7] ?? '').padEnd(9, '0');
  const subMillisecond = Number(fraction.slice(3)) > 0;
  const zone = m[8] ?? 'Z';
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.slice(0, 3)));
  const check = new Date(Date.UTC(year, month - 1, day));
  const realDate = check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
  if (!realDate || hour > 23 || minute > 59 || second > 59 || Math.abs(offsetMinutes) > 23 * 60 + 59 || year < 1) return invalid;
  const instant = new Date(local - offsetMinutes * 60_000 + (subMillisecond && rounding === 'up' ? 1 : 0));
  if (Number.isNaN(instant.getTime()) || instant.getUTCFullYear() > 9999 || instant.getUTCFullYear() < 1) return invalid;
  return E.right(instant.toISOString());
};

export interface FieldValue {
  readonly field: string;
  /** null when the part had no unescaped `:` */
  readonly value: string | null;
}

/**
 * Reads `field:value,field:value`: parts end at an unescaped `,`; a part's field ends at its first
 * unescaped `:`, so a value may hold more colons as they are (`url:https://a.b`). A backslash makes the
 * next character literal: `\,` in a value, `\:` in a field, `\\` for a backslash. Null when the text
 * ends in a lone backslash.
 */
export const readFieldValues = (text: string): FieldValue[] | null => {
  const parts: FieldValue[] = [];
  let field = '';
  let value: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    let c = text[i]!;
    const escaped = c === '\\';
    if (escaped) {
      if (i + 1 >= text.length) return null;
      c = text[++i]!;
    }
    if (!escaped && c === ',') {
      parts.push({ field, value });
      field = '';
      value = null;
    } else if (!escaped && c === ':' && value === null) {
      value = '';
    } else if (value === null) {
      field += c;
    } else {
      value += c;
    }
  }
  parts.push({ field, value });
  return parts;
};
