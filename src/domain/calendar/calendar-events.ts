import * as t from 'io-ts';
import { CreatedBy } from '../bot/bot-events';
import { eventCodec, IsoInstant, Sealed } from '../codec-helpers';
import { CalendarEventBotLinked, CalendarEventBotUnlinked } from './event-bot-link';

/** The two calendar providers (the spec's `platform`: Google and Microsoft). */
export const CalendarPlatform = t.keyof({ google: null, microsoft: null });
export type CalendarPlatform = t.TypeOf<typeof CalendarPlatform>;

export const Attendee = t.type({ email: t.string, name: t.union([t.string, t.null]) });
export type Attendee = t.TypeOf<typeof Attendee>;

/** The part of the provider's window the last full sync covered: unseen events inside it are gone. */
export const SyncWindow = t.type({ start: IsoInstant, end: IsoInstant });
export type SyncWindow = t.TypeOf<typeof SyncWindow>;

/**
 * One calendar event as this service keeps it: the fields of the spec's legacy calendar event, the
 * provider's own record (`raw`), and a fingerprint of all of it, so that seeing the same event again in a
 * later sync records nothing.
 */
export const CalendarEventData = t.type({
  event_id: t.string,
  provider_event_id: t.string,
  /** the recurring series this event is an instance of (the provider's id of the series), else null */
  series_id: t.union([t.string, t.null]),
  name: t.string,
  meeting_url: t.union([t.string, t.null]),
  start_time: IsoInstant,
  end_time: IsoInstant,
  attendees: t.array(Attendee),
  organizer_email: t.union([t.string, t.null]),
  is_organizer: t.boolean,
  is_recurring: t.boolean,
  /** when the provider last changed it, as the provider says */
  provider_updated_at: t.union([IsoInstant, t.null]),
  raw: t.UnknownRecord,
  fingerprint: t.string,
});
export type CalendarEventData = t.TypeOf<typeof CalendarEventData>;

/**
 * A team connected one calendar of a provider account. The OAuth client secret and the refresh token are
 * write-only: sealed by the service before they reach the domain, never shown again. `webhook_url`, when
 * given, receives this calendar's webhooks instead of the team's endpoints.
 */
export const CalendarConnected = eventCodec('CalendarConnected', {
  calendar_id: t.string,
  team_id: t.string,
  platform: CalendarPlatform,
  provider_calendar_id: t.string,
  name: t.string,
  email: t.string,
  oauth_client_id: t.string,
  oauth_client_secret: Sealed,
  refresh_token: Sealed,
  webhook_url: t.union([t.string, t.null]),
  created_by: CreatedBy,
  at: IsoInstant,
});

/** The provider answered a refresh with a new refresh token (Microsoft rotates them): the old one may stop working. */
export const CalendarRefreshTokenRotated = eventCodec('CalendarRefreshTokenRotated', { calendar_id: t.string, refresh_token: Sealed, at: IsoInstant });

export const SyncReason = t.keyof({ push: null, api: null });
export type SyncReason = t.TypeOf<typeof SyncReason>;

/** Someone asked for a sync (a provider's push notification, a team's resync): kept until a round serves it. */
export const CalendarSyncRequested = eventCodec('CalendarSyncRequested', { calendar_id: t.string, reason: SyncReason, full: t.boolean, at: IsoInstant });

export const EventChange = t.keyof({ created: null, updated: null });
export type EventChange = t.TypeOf<typeof EventChange>;

export const CalendarEventUpserted = eventCodec('CalendarEventUpserted', {
  calendar_id: t.string,
  team_id: t.string,
  change: EventChange,
  event: CalendarEventData,
  at: IsoInstant,
});

/** The event was deleted or cancelled at the provider (one instance of a series, or a whole event). */
export const CalendarEventCancelled = eventCodec('CalendarEventCancelled', {
  calendar_id: t.string,
  team_id: t.string,
  event_id: t.string,
  provider_event_id: t.string,
  series_id: t.union([t.string, t.null]),
  name: t.string,
  start_time: IsoInstant,
  at: IsoInstant,
});

export const SyncType = t.keyof({ initial: null, incremental: null, full: null });
export type SyncType = t.TypeOf<typeof SyncType>;

/**
 * A sync round finished. `cursor` is where the next incremental round starts (Google's sync token, Graph's
 * delta link); `served` counts the requests this round answered; `events_synced` the events it changed.
 */
export const CalendarSynced = eventCodec('CalendarSynced', {
  calendar_id: t.string,
  team_id: t.string,
  sync_type: SyncType,
  cursor: t.string,
  window: SyncWindow,
  events_synced: t.number,
  served: t.number,
  at: IsoInstant,
});

/**
 * Refused by the provider for good (`credentials_revoked`, `access_denied`, `calendar_not_found`: the
 * calendar stops syncing until the team asks again) or for now (`provider_unavailable`: retried later).
 */
export const SyncFailure = t.keyof({ credentials_revoked: null, access_denied: null, calendar_not_found: null, provider_unavailable: null });
export type SyncFailure = t.TypeOf<typeof SyncFailure>;

export const CalendarSyncFailed = eventCodec('CalendarSyncFailed', {
  calendar_id: t.string,
  team_id: t.string,
  reason: SyncFailure,
  message: t.string,
  served: t.number,
  at: IsoInstant,
});

/**
 * A push channel at the provider (a Google watch channel, a Graph subscription). `channel_id` is ours (its
 * token or client state is derived from it); `provider_channel_id` is Google's resource id or Graph's
 * subscription id, needed to stop it.
 */
export const PushChannel = t.type({ channel_id: t.string, provider_channel_id: t.string, expires_at: IsoInstant });
export type PushChannel = t.TypeOf<typeof PushChannel>;

export const CalendarPushChannelOpened = eventCodec('CalendarPushChannelOpened', { calendar_id: t.string, channel: PushChannel, at: IsoInstant });
export const CalendarPushChannelRenewed = eventCodec('CalendarPushChannelRenewed', { calendar_id: t.string, channel_id: t.string, expires_at: IsoInstant, at: IsoInstant });
export const CalendarPushChannelClosed = eventCodec('CalendarPushChannelClosed', { calendar_id: t.string, channel_id: t.string, at: IsoInstant });

/** The provider would not open a push channel (e.g. our address is not reachable from it): periodic resyncs only. */
export const CalendarPushUnavailable = eventCodec('CalendarPushUnavailable', { calendar_id: t.string, message: t.string, at: IsoInstant });

export const CalendarRemoved = eventCodec('CalendarRemoved', { calendar_id: t.string, team_id: t.string, at: IsoInstant });

/** What a bot request applies to: one event, or every instance of a series (`all_occurrences`), present and future. */
export const BotScope = t.union([t.type({ kind: t.literal('event'), event_id: t.string }), t.type({ kind: t.literal('series'), series_id: t.string })]);
export type BotScope = t.TypeOf<typeof BotScope>;

/**
 * The bot a team attached, as it asked: the legacy `bot_param` fields or a v2 bot body (without the
 * meeting, which is the event's), its secrets (speech-to-text and transcription keys, vc tokens, a
 * callback secret) sealed apart under their paths and never shown again, and its deduplication key.
 */
export const CalendarBotParam = t.type({
  generation: t.keyof({ legacy: null, v2: null }),
  shown: t.UnknownRecord,
  secrets: t.record(t.string, Sealed),
  deduplication_key: t.union([t.string, t.null]),
});
export type CalendarBotParam = t.TypeOf<typeof CalendarBotParam>;

/**
 * Bot parameters attached to an event or a series. On an event of a series whose bot it must not have,
 * `bot_param` is null: that instance is left out.
 */
export const CalendarBotParamsSet = eventCodec('CalendarBotParamsSet', {
  calendar_id: t.string,
  team_id: t.string,
  scope: BotScope,
  /** the event's series, for an event scope (so that removing a series' bots finds its instances) */
  series_id: t.union([t.string, t.null]),
  bot_param: t.union([CalendarBotParam, t.null]),
  created_by: CreatedBy,
  at: IsoInstant,
});

export const CalendarBotParamsCleared = eventCodec('CalendarBotParamsCleared', { calendar_id: t.string, team_id: t.string, scope: BotScope, at: IsoInstant });

export const CalendarEvent = t.union([
  CalendarConnected, CalendarRefreshTokenRotated, CalendarSyncRequested, CalendarEventUpserted, CalendarEventCancelled, CalendarSynced,
  CalendarSyncFailed, CalendarPushChannelOpened, CalendarPushChannelRenewed, CalendarPushChannelClosed, CalendarPushUnavailable, CalendarRemoved,
  CalendarBotParamsSet, CalendarBotParamsCleared, CalendarEventBotLinked, CalendarEventBotUnlinked,
]);
export type CalendarEvent = t.TypeOf<typeof CalendarEvent>;
export type CalendarConnectedEvent = t.TypeOf<typeof CalendarConnected>;

export const calendarStreamName = (calendarId: string): string => `calendar-${calendarId}`;

const calendarEventTypes: ReadonlySet<string> = new Set(CalendarEvent.types.map((codec) => codec.props.type.value));
export const isCalendarEvent = (event: { readonly type: string }): event is CalendarEvent => calendarEventTypes.has(event.type);
