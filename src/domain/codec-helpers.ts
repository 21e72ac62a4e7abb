import * as t from 'io-ts';

/** An event as the domain sees it: a type tag and its data, decoded from the store with io-ts. */
export const eventCodec = <T extends string, D extends t.Props>(type: T, data: D) =>
  t.type({ type: t.literal(type), data: t.type(data) });

/**
 * `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or an offset `±HH:MM`: what `toISOString()`
 * writes (the only producer in the service and the bot runtime), plus the RFC 3339 spellings of the same
 * instant. A time without a zone is not an instant (it depends on the reader's zone) and is refused.
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number): number => (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);

/** Every event decode checks its times: plain arithmetic on the matched fields, no Date per check. */
export const isIsoInstant = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  const m = ISO_INSTANT.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
  return m[7] === undefined || (Number(m[8]) <= 23 && Number(m[9]) <= 59);
};

/**
 * ISO 8601 instants travel as strings in events; the domain compares them as epoch milliseconds.
 * A refinement of string (the TypeScript type stays `string`): decoding refuses anything that is not an
 * instant, so an event whose time cannot be compared never enters a fold.
 */
export const IsoInstant = new t.Type<string, string, unknown>(
  'IsoInstant',
  isIsoInstant,
  (u, c) => (isIsoInstant(u) ? t.success(u) : t.failure(u, c, 'an ISO 8601 instant such as 2025-03-03T09:00:00.000Z')),
  t.identity,
);

const isNonNegativeInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Token amounts: whole thousandths, never negative (the direction is the event's type, not the sign). */
export const TokenAmount = new t.Type<number, number, unknown>(
  'TokenAmount',
  isNonNegativeInt,
  (u, c) => (isNonNegativeInt(u) ? t.success(u) : t.failure(u, c, 'a whole, non-negative number of thousandths')),
  t.identity,
);

export const toMillis = (iso: string): number => Date.parse(iso);

/**
 * A field that events written before it existed do not carry: absent (or null) decodes as the fallback,
 * so adding a field to an event never needs an upcaster of its own.
 */
export const withDecodeDefault = <A>(codec: t.Type<A, unknown, unknown>, fallback: () => A): t.Type<A, unknown, unknown> =>
  new t.Type<A, unknown, unknown>(
    codec.name,
    codec.is,
    (u, c) => (u === undefined || u === null ? t.success(fallback()) : codec.validate(u, c)),
    codec.encode,
  );

export const nullableField = <A>(codec: t.Type<A, unknown, unknown>): t.Type<A | null, unknown, unknown> =>
  withDecodeDefault(t.union([codec, t.null]) as t.Type<A | null, unknown, unknown>, () => null);

/**
 * A write-only secret as the domain keeps it: sealed (encrypted) by the service before it reaches a
 * command. The domain never sees, compares or logs the plain value.
 */
export const Sealed = t.type({ sealed: t.string });
export type Sealed = t.TypeOf<typeof Sealed>;
