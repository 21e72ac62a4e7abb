import type { Attendee, CalendarPlatform, PushChannel, SyncWindow } from '../../domain/calendar/calendar-events';

/**
 * The calendar provider port: what the service needs of Google Calendar and Microsoft Graph. Every call
 * names the account's OAuth client and refresh token; the adapter gets access tokens with the OAuth
 * refresh-token grant and keeps them only in memory (a restart just asks for new ones).
 */
export interface ProviderCredentials {
  readonly client_id: string;
  readonly client_secret: string;
  readonly refresh_token: string;
}

export interface ProviderSession {
  readonly credentials: ProviderCredentials;
  /** the provider answered a refresh with a new refresh token: it must be kept (the old one may stop working) */
  readonly onRefreshTokenRotated?: (refreshToken: string) => Promise<void>;
}

/** One calendar of the account, as `POST /calendars/raw` lists it. */
export interface RawCalendar {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly is_primary: boolean;
}

/** An event as the provider has it now, in the service's terms (ids and fingerprint are added by the service). */
export interface ProviderEvent {
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
  readonly provider_updated_at: string | null;
  readonly raw: Record<string, unknown>;
}

export type ProviderItem = { readonly kind: 'upsert'; readonly event: ProviderEvent } | { readonly kind: 'removed'; readonly provider_event_id: string };

/** A full read of the window, or the changes since an earlier round's cursor. */
export type SyncStart = { readonly kind: 'full'; readonly window: SyncWindow } | { readonly kind: 'incremental'; readonly cursor: string };

/** Where the provider should post its notifications, and the secret it must present with them. */
export interface ChannelRequest {
  readonly channel_id: string;
  readonly token: string;
  readonly address: string;
  /** when it should end (Graph takes a time; Google a time to live, the same span from the service's now) */
  readonly expires_at: string;
  readonly ttl_seconds: number;
}

export interface CalendarProvider {
  readonly platform: CalendarPlatform;
  listCalendars(session: ProviderSession): Promise<readonly RawCalendar[]>;
  /** Reads page after page, handing each to `onPage` before asking for the next; the cursor of the next round. */
  sync(session: ProviderSession, calendarId: string, start: SyncStart, onPage: (items: readonly ProviderItem[]) => Promise<void>): Promise<{ readonly cursor: string }>;
  openChannel(session: ProviderSession, calendarId: string, request: ChannelRequest): Promise<PushChannel>;
  /** A later expiry for the same channel, or null when the provider cannot extend one (Google: open a new one). */
  renewChannel(session: ProviderSession, channel: PushChannel, expiresAt: string): Promise<PushChannel | null>;
  closeChannel(session: ProviderSession, channel: PushChannel): Promise<void>;
}

export type ProviderErrorKind =
  /** the refresh token was revoked or expired (`invalid_grant`) */
  | 'credentials_revoked'
  /** the OAuth client id or secret is wrong */
  | 'invalid_client'
  /** the token lacks a permission the call needs */
  | 'access_denied'
  | 'calendar_not_found'
  /** the cursor is too old: a full sync is needed (Google 410, Graph 410 syncStateNotFound) */
  | 'sync_token_expired'
  /** the provider would not open the push channel (Graph could not validate the notification URL) */
  | 'channel_refused'
  /** down, throttling, or unreachable: try again later */
  | 'unavailable';

export class CalendarProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'CalendarProviderError';
  }
}
