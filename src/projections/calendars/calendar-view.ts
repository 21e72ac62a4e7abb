import type { CalendarPlatform, PushChannel, SyncFailure, SyncType } from '../../domain/calendar/calendar-events';
import type { Projection } from '../projection';

/** A team's connected calendar as the API shows it (never its client secret or refresh token). */
export type CalendarView = {
  readonly id: string;
  readonly team_id: string;
  readonly platform: CalendarPlatform;
  readonly provider_calendar_id: string;
  readonly name: string;
  readonly email: string;
  readonly webhook_url: string | null;
  /** `syncing` until the first round ends; `error` once the provider refused it for good */
  readonly status: 'syncing' | 'synced' | 'error';
  readonly removed: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_synced_at: string | null;
  readonly last_sync_type: SyncType | null;
  readonly last_error: { readonly reason: SyncFailure; readonly message: string; readonly at: string } | null;
  readonly push_channels: readonly PushChannel[];
  readonly push_unavailable: string | null;
  /** global position of its creation: only webhook endpoints older than an event receive it (decimal string) */
  readonly created_position: string;
};

export const CALENDARS = 'calendars';

/** Event-by-event changes touch the events' own documents, not the calendar's. */
const calendarLevel: ReadonlySet<string> = new Set([
  'CalendarConnected', 'CalendarSynced', 'CalendarSyncFailed', 'CalendarPushChannelOpened', 'CalendarPushChannelRenewed',
  'CalendarPushChannelClosed', 'CalendarPushUnavailable', 'CalendarRemoved',
]);

export const calendarViewProjection: Projection<CalendarView> = {
  collection: CALENDARS,
  indexes: [[{ field: 'team_id', direction: 'asc' }, { field: 'created_at', direction: 'asc' }]],
  documentId: (event) => (calendarLevel.has(event.type) ? (event.data as { calendar_id: string }).calendar_id : null),
  evolve: (doc, event, { position }) => {
    if (event.type === 'CalendarConnected') {
      const { calendar_id, team_id, platform, provider_calendar_id, name, email, webhook_url, at } = event.data;
      return {
        id: calendar_id, team_id, platform, provider_calendar_id, name, email, webhook_url, status: 'syncing', removed: false, created_at: at, updated_at: at,
        last_synced_at: null, last_sync_type: null, last_error: null, push_channels: [], push_unavailable: null, created_position: position.toString(),
      };
    }
    if (doc === null) return null;
    switch (event.type) {
      case 'CalendarSynced':
        return { ...doc, status: 'synced', last_synced_at: event.data.at, last_sync_type: event.data.sync_type, last_error: null, updated_at: event.data.at };
      case 'CalendarSyncFailed': {
        const { reason, message, at } = event.data;
        return { ...doc, status: reason === 'provider_unavailable' ? doc.status : 'error', last_error: { reason, message, at }, updated_at: at };
      }
      case 'CalendarPushChannelOpened':
        return { ...doc, push_channels: [...doc.push_channels, event.data.channel], push_unavailable: null };
      case 'CalendarPushChannelRenewed':
        return { ...doc, push_channels: doc.push_channels.map((c) => (c.channel_id === event.data.channel_id ? { ...c, expires_at: event.data.expires_at } : c)) };
      case 'CalendarPushChannelClosed':
        return { ...doc, push_channels: doc.push_channels.filter((c) => c.channel_id !== event.data.channel_id) };
      case 'CalendarPushUnavailable':
        return { ...doc, push_unavailable: event.data.message };
      case 'CalendarRemoved':
        return { ...doc, removed: true, updated_at: event.data.at };
      default:
        return null;
    }
  },
};
