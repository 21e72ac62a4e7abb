import type { calendar_v3 } from '@googleapis/calendar';
import { meetingUrlIn } from '../../../domain/calendar/meeting-url-in-text';
import type { PlatformOptions } from '../../../domain/meeting-url';
import type { ProviderItem } from '../port';

type GoogleEvent = calendar_v3.Schema$Event;

/** A timed event has `dateTime` (RFC 3339 with an offset); an all-day one only a `date`, taken as midnight UTC. */
const instantOf = (time: calendar_v3.Schema$EventDateTime | undefined): string | null => {
  const text = time?.dateTime ?? (time?.date ? `${time.date}T00:00:00Z` : null);
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

const videoEntryPoint = (event: GoogleEvent): string | null =>
  event.conferenceData?.entryPoints?.find((entry) => entry.entryPointType === 'video')?.uri ?? null;

/**
 * A Google event in the service's terms. A cancelled one (a deleted event, or a cancelled instance of a
 * series) is a removal; so is one whose times cannot be read (nothing could be scheduled for it).
 */
export const googleItem = (event: GoogleEvent, options: PlatformOptions): ProviderItem | null => {
  if (!event.id) return null;
  if (event.status === 'cancelled') return { kind: 'removed', provider_event_id: event.id };
  const start = instantOf(event.start);
  const end = instantOf(event.end) ?? start;
  if (start === null || end === null) return { kind: 'removed', provider_event_id: event.id };
  return {
    kind: 'upsert',
    event: {
      provider_event_id: event.id,
      series_id: event.recurringEventId ?? null,
      name: event.summary ?? '',
      meeting_url: meetingUrlIn([event.hangoutLink, videoEntryPoint(event)], [event.location, event.description], options),
      start_time: start,
      end_time: end,
      attendees: (event.attendees ?? []).flatMap((a) => (a.email ? [{ email: a.email, name: a.displayName ?? null }] : [])),
      organizer_email: event.organizer?.email ?? null,
      is_organizer: event.organizer?.self === true,
      is_recurring: Boolean(event.recurringEventId ?? event.recurrence),
      provider_updated_at: event.updated && !Number.isNaN(Date.parse(event.updated)) ? new Date(Date.parse(event.updated)).toISOString() : null,
      raw: event as Record<string, unknown>,
    },
  };
};
