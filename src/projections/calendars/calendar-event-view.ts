import type { Attendee } from '../../domain/calendar/calendar-events';
import type { Projection } from '../projection';

/** One event of a connected calendar, as GET /calendar_events shows it. */
export type CalendarEventView = {
  readonly id: string;
  readonly calendar_id: string;
  readonly team_id: string;
  readonly provider_event_id: string;
  readonly series_id: string | null;
  readonly name: string;
  readonly meeting_url: string | null;
  readonly start_time: string;
  readonly end_time: string;
  readonly attendees: readonly Attendee[];
  readonly organizer_email: string | null;
  readonly is_organizer: boolean;
  readonly is_recurring: boolean;
  readonly raw: Record<string, unknown>;
  /** cancelled or deleted at the provider: still listed, so that a client polling with updated_at_gte learns it */
  readonly deleted: boolean;
  /** when this service last changed its record of the event */
  readonly last_updated_at: string;
  /** the scheduled bot that follows the event, if any */
  readonly bot_id: string | null;
};

export const CALENDAR_EVENTS = 'calendar_events';

export const calendarEventViewProjection: Projection<CalendarEventView> = {
  collection: CALENDAR_EVENTS,
  // GET /calendar_events (a calendar's events by start), a series' instances, the events a bot follows.
  indexes: [
    [{ field: 'calendar_id', direction: 'asc' }, { field: 'start_time', direction: 'asc' }, { field: 'id', direction: 'asc' }],
    [{ field: 'bot_id', direction: 'asc' }],
  ],
  documentId: (event) => {
    if (event.type === 'CalendarEventUpserted') return event.data.event.event_id;
    if (event.type === 'CalendarEventCancelled' || event.type === 'CalendarEventBotLinked' || event.type === 'CalendarEventBotUnlinked') return event.data.event_id;
    return null;
  },
  evolve: (doc, event) => {
    if (event.type === 'CalendarEventUpserted') {
      const { calendar_id, team_id, at } = event.data;
      const { event_id, provider_event_id, series_id, name, meeting_url, start_time, end_time, attendees, organizer_email, is_organizer, is_recurring, raw } = event.data.event;
      return {
        id: event_id, calendar_id, team_id, provider_event_id, series_id, name, meeting_url, start_time, end_time, attendees, organizer_email, is_organizer,
        is_recurring, raw, deleted: false, last_updated_at: at, bot_id: doc?.bot_id ?? null,
      };
    }
    if (event.type === 'CalendarEventCancelled' && doc !== null) return { ...doc, deleted: true, last_updated_at: event.data.at };
    if (event.type === 'CalendarEventBotLinked' && doc !== null) return { ...doc, bot_id: event.data.bot_id };
    if (event.type === 'CalendarEventBotUnlinked' && doc !== null && doc.bot_id === event.data.bot_id) return { ...doc, bot_id: null };
    return null;
  },
};
