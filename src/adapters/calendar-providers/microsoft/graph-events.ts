import { meetingUrlIn } from '../../../domain/calendar/meeting-url-in-text';
import type { PlatformOptions } from '../../../domain/meeting-url';
import type { ProviderItem } from '../port';

/** The fields of a Graph event this service reads (the whole record is kept as `raw`). */
export interface GraphEvent {
  readonly id?: string;
  readonly '@removed'?: { readonly reason?: string };
  readonly subject?: string | null;
  readonly start?: { readonly dateTime?: string; readonly timeZone?: string } | null;
  readonly end?: { readonly dateTime?: string; readonly timeZone?: string } | null;
  readonly isCancelled?: boolean;
  readonly isOrganizer?: boolean;
  readonly type?: string;
  readonly seriesMasterId?: string | null;
  readonly organizer?: { readonly emailAddress?: { readonly address?: string | null; readonly name?: string | null } } | null;
  readonly attendees?: readonly { readonly emailAddress?: { readonly address?: string | null; readonly name?: string | null } }[] | null;
  readonly onlineMeeting?: { readonly joinUrl?: string | null } | null;
  readonly onlineMeetingUrl?: string | null;
  readonly location?: { readonly displayName?: string | null } | null;
  readonly bodyPreview?: string | null;
  readonly lastModifiedDateTime?: string | null;
}

/**
 * Graph writes times as `2026-05-04T09:00:00.0000000` in the zone named beside them; the service asks for
 * UTC (`Prefer: outlook.timezone="UTC"`), so a time without an offset is UTC.
 */
const instantOf = (time: GraphEvent['start']): string | null => {
  if (!time?.dateTime) return null;
  const hasZone = /(Z|[+-]\d{2}:\d{2})$/.test(time.dateTime);
  const ms = Date.parse(hasZone ? time.dateTime : `${time.dateTime}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

/** A Graph event in the service's terms; a removed or cancelled one (`@removed`, `isCancelled`) is a removal. */
export const graphItem = (event: GraphEvent, options: PlatformOptions): ProviderItem | null => {
  if (!event.id) return null;
  if (event['@removed'] || event.isCancelled) return { kind: 'removed', provider_event_id: event.id };
  const start = instantOf(event.start);
  const end = instantOf(event.end) ?? start;
  if (start === null || end === null) return { kind: 'removed', provider_event_id: event.id };
  const updated = event.lastModifiedDateTime ? Date.parse(event.lastModifiedDateTime) : Number.NaN;
  return {
    kind: 'upsert',
    event: {
      provider_event_id: event.id,
      series_id: event.seriesMasterId ?? null,
      name: event.subject ?? '',
      meeting_url: meetingUrlIn([event.onlineMeeting?.joinUrl, event.onlineMeetingUrl], [event.location?.displayName, event.bodyPreview], options),
      start_time: start,
      end_time: end,
      attendees: (event.attendees ?? []).flatMap((a) => (a.emailAddress?.address ? [{ email: a.emailAddress.address, name: a.emailAddress.name ?? null }] : [])),
      organizer_email: event.organizer?.emailAddress?.address ?? null,
      is_organizer: event.isOrganizer === true,
      is_recurring: Boolean(event.seriesMasterId) || event.type === 'occurrence' || event.type === 'exception' || event.type === 'seriesMaster',
      provider_updated_at: Number.isNaN(updated) ? null : new Date(updated).toISOString(),
      raw: event as Record<string, unknown>,
    },
  };
};
