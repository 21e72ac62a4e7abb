import { createHash } from 'node:crypto';
import type { ReadStore } from '../../adapters/read-store/port';
import { CALENDAR_EVENTS, type CalendarEventView } from '../../projections/calendars/calendar-event-view';
import { validationError } from '../api-error';
import type { CalendarEventsQuery } from '../codecs/calendar-requests';

/** The spec: calendar events come in batches of 100. */
export const CALENDAR_EVENTS_BATCH = 100;
/** Documents read from the store per step while filtering. */
const SCAN_STEP = 500;

/** The filters a cursor belongs to: a cursor of another query is refused rather than followed. */
const fingerprintOf = (query: CalendarEventsQuery): string =>
  createHash('sha256')
    .update(JSON.stringify([query.calendar_id, query.attendee_email, query.organizer_email, query.start_date_gte, query.start_date_lte, query.updated_at_gte, query.status]))
    .digest('base64url')
    .slice(0, 16);

const encodeCursor = (query: CalendarEventsQuery, last: CalendarEventView): string =>
  Buffer.from(JSON.stringify({ k: [last.start_time, last.id], f: fingerprintOf(query) })).toString('base64url');

const decodeCursor = (query: CalendarEventsQuery, cursor: string): [string, string] => {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown; f?: unknown };
    if (Array.isArray(value.k) && value.k.length === 2 && value.k.every((x) => typeof x === 'string') && value.f === fingerprintOf(query)) return value.k as [string, string];
  } catch {
    // refused below
  }
  throw validationError('querystring/cursor', 'is not a `next` value of this same query');
};

/**
 * `upcoming`: not over yet (a meeting under way can still be joined); `past`: over. Start and update
 * bounds are inclusive; attendee and organizer addresses match whole, in any case.
 */
const matcher = (query: CalendarEventsQuery, nowMs: number) => (event: CalendarEventView): boolean => {
  const start = Date.parse(event.start_time);
  const end = Date.parse(event.end_time);
  if (query.status === 'upcoming' && end <= nowMs) return false;
  if (query.status === 'past' && end > nowMs) return false;
  if (query.start_date_gte !== undefined && start < query.start_date_gte) return false;
  if (query.start_date_lte !== undefined && start > query.start_date_lte) return false;
  if (query.updated_at_gte !== undefined && Date.parse(event.last_updated_at) < query.updated_at_gte) return false;
  if (query.organizer_email !== undefined && event.organizer_email?.toLowerCase() !== query.organizer_email) return false;
  if (query.attendee_email !== undefined && !event.attendees.some((a) => a.email.toLowerCase() === query.attendee_email)) return false;
  return true;
};

/** One batch of a calendar's events by start time (then id), and the cursor of the next one (null: the last). */
export const listCalendarEvents = async (
  readStore: ReadStore,
  query: CalendarEventsQuery,
  nowMs: number,
): Promise<{ readonly events: readonly CalendarEventView[]; readonly next: string | null }> => {
  const matches = matcher(query, nowMs);
  const found: CalendarEventView[] = [];
  let after: readonly [string, string] | undefined = query.cursor === undefined ? undefined : decodeCursor(query, query.cursor);
  // One more than a batch tells whether there is a next one.
  while (found.length <= CALENDAR_EVENTS_BATCH) {
    const step = await readStore.find<CalendarEventView>(CALENDAR_EVENTS, {
      where: { calendar_id: query.calendar_id },
      orderBy: [
        { field: 'start_time', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
      ...(after ? { startAfter: after } : {}),
      limit: SCAN_STEP,
    });
    for (const event of step) if (matches(event)) found.push(event);
    if (step.length < SCAN_STEP) break;
    const last = step[step.length - 1]!;
    after = [last.start_time, last.id];
  }
  const events = found.slice(0, CALENDAR_EVENTS_BATCH);
  return { events, next: found.length > CALENDAR_EVENTS_BATCH ? encodeCursor(query, events[events.length - 1]!) : null };
};
