import type { CalendarEvent, CalendarPlatform } from '../calendar/calendar-events';
import type { OutgoingMessage } from './bot-webhook-messages';

type Upserted = Extract<CalendarEvent, { type: 'CalendarEventUpserted' }>['data'];
type Cancelled = Extract<CalendarEvent, { type: 'CalendarEventCancelled' }>['data'];
type Synced = Extract<CalendarEvent, { type: 'CalendarSynced' }>['data'];
type Failed = Extract<CalendarEvent, { type: 'CalendarSyncFailed' }>['data'];

/** What one sync round changed, in the order it happened. */
export type RoundChange = { readonly kind: 'upserted'; readonly data: Upserted } | { readonly kind: 'cancelled'; readonly data: Cancelled };

/** A series groups its instances in one message; an event outside any series is its own group. */
const groupKey = (seriesId: string | null, providerEventId: string): string => (seriesId === null ? `event:${providerEventId}` : `series:${seriesId}`);

interface Group {
  readonly series_id: string | null;
  readonly items: RoundChange[];
}

const groupsOf = (changes: readonly RoundChange[]): Group[] => {
  const groups = new Map<string, Group>();
  for (const change of changes) {
    const seriesId = change.kind === 'upserted' ? change.data.event.series_id : change.data.series_id;
    const providerEventId = change.kind === 'upserted' ? change.data.event.provider_event_id : change.data.provider_event_id;
    const key = groupKey(seriesId, providerEventId);
    const group = groups.get(key) ?? { series_id: seriesId, items: [] };
    group.items.push(change);
    groups.set(key, group);
  }
  return [...groups.values()];
};

const instanceOf = (data: Upserted) => ({
  event_id: data.event.event_id,
  title: data.event.name,
  start_time: data.event.start_time,
  end_time: data.event.end_time,
  meeting_url: data.event.meeting_url,
  // Bots for calendar events come with scheduled bots; until then no event has one.
  bot_scheduled: false,
});

const message = (event_type: string, data: Record<string, unknown>): OutgoingMessage => ({ event_type, payload: { event: event_type, data } });

/**
 * The webhooks of a finished round (Meeting BaaS's calendar events): per series (or lone event) one
 * `calendar.event_created`, `calendar.event_updated` and `calendar.event_cancelled` listing its instances,
 * then `calendar.events_synced` with the count. The first round of a calendar sends only the count: every
 * event in it is new, and the team reads them with GET /calendar_events.
 */
export const calendarRoundMessages = (synced: Synced, changes: readonly RoundChange[]): readonly OutgoingMessage[] => {
  const messages: OutgoingMessage[] = [];
  if (synced.sync_type !== 'initial') {
    for (const group of groupsOf(changes)) {
      const base = {
        calendar_id: synced.calendar_id,
        event_type: group.series_id === null ? 'one_off' : 'recurring',
        series_id: group.series_id,
        series_bot_scheduled: false,
      };
      const created = group.items.flatMap((c) => (c.kind === 'upserted' && c.data.change === 'created' ? [instanceOf(c.data)] : []));
      const updated = group.items.flatMap((c) => (c.kind === 'upserted' && c.data.change === 'updated' ? [instanceOf(c.data)] : []));
      const cancelled = group.items.flatMap((c) =>
        c.kind === 'cancelled' ? [{ event_id: c.data.event_id, title: c.data.name, start_time: c.data.start_time }] : [],
      );
      if (created.length > 0) messages.push(message('calendar.event_created', { ...base, instances: created }));
      if (updated.length > 0) messages.push(message('calendar.event_updated', { ...base, affected_instances: updated }));
      if (cancelled.length > 0) messages.push(message('calendar.event_cancelled', { ...base, cancelled_instances: cancelled }));
    }
  }
  if (synced.events_synced > 0 || synced.sync_type !== 'incremental') {
    messages.push(message('calendar.events_synced', { calendar_id: synced.calendar_id, events_synced: synced.events_synced, sync_type: synced.sync_type }));
  }
  return messages;
};

/** A calendar the provider refused for good: the team must act (connect it again with new credentials). */
export const calendarFailureMessages = (failed: Failed, platform: CalendarPlatform): readonly OutgoingMessage[] =>
  failed.reason === 'provider_unavailable'
    ? []
    : [message('calendar.error', { calendar_id: failed.calendar_id, platform, error: failed.reason, message: failed.message, status: 'error' })];
