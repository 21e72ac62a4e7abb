import * as E from 'fp-ts/Either';
import type { CreatedBy } from '../bot/bot-events';
import type { Sealed } from '../codec-helpers';
import { toMillis } from '../codec-helpers';
import type { Decider } from '../decider';
import type {
  CalendarEvent, CalendarEventData, CalendarPlatform, PushChannel, SyncFailure, SyncReason, SyncType, SyncWindow,
} from './calendar-events';
import { attachBot, detachBot, evolveBotParams, noBotParams, type BotParams, type BotRequest } from './calendar-bot-params';
import type { CalendarBotParam } from './calendar-events';
import { EventIndex, type KnownEvent } from './event-index';

/** What a sync round read from the provider: an event as it is now, or the news that it is gone. */
export type ProviderChange =
  | { readonly kind: 'upsert'; readonly event: CalendarEventData }
  | { readonly kind: 'removed'; readonly provider_event_id: string };

/** What connecting a calendar fixes: whose it is, where it lives, and the sealed credentials to read it. */
export interface CalendarConnection {
  readonly calendar_id: string;
  readonly team_id: string;
  readonly platform: CalendarPlatform;
  readonly provider_calendar_id: string;
  readonly name: string;
  readonly email: string;
  readonly oauth_client_id: string;
  readonly oauth_client_secret: Sealed;
  readonly refresh_token: Sealed;
  readonly webhook_url: string | null;
  /** the key that connected it, sealed: its webhooks carry it in `x-service-api-key` */
  readonly created_by: CreatedBy;
}

export type CalendarCommand =
  | ({ readonly type: 'Connect'; readonly now: string } & CalendarConnection)
  | { readonly type: 'RotateRefreshToken'; readonly refresh_token: Sealed; readonly now: string }
  /** `team_id` when a team asks (its own calendars only); null when the provider's push asks */
  | { readonly type: 'RequestSync'; readonly team_id: string | null; readonly reason: SyncReason; readonly full: boolean; readonly now: string }
  | { readonly type: 'RecordChanges'; readonly changes: readonly ProviderChange[]; readonly now: string }
  | {
      readonly type: 'CompleteSync';
      readonly sync_type: SyncType;
      readonly cursor: string;
      readonly window: SyncWindow;
      /** after a full round: the provider ids it saw; events inside the window it did not see are gone */
      readonly seen: ReadonlySet<string> | null;
      /** the requests counted when the round began: those it answers */
      readonly serves: number;
      readonly now: string;
    }
  | { readonly type: 'FailSync'; readonly reason: SyncFailure; readonly message: string; readonly serves: number; readonly now: string }
  | { readonly type: 'OpenPushChannel'; readonly channel: PushChannel; readonly now: string }
  | { readonly type: 'RenewPushChannel'; readonly channel_id: string; readonly expires_at: string; readonly now: string }
  | { readonly type: 'ClosePushChannel'; readonly channel_id: string; readonly now: string }
  | { readonly type: 'NotePushUnavailable'; readonly message: string; readonly now: string }
  | { readonly type: 'Remove'; readonly team_id: string; readonly now: string }
  /** POST/PATCH /calendar_events/{uuid}/bot (PATCH merged its fields into the current ones first) */
  | ({ readonly type: 'AttachBot'; readonly bot_param: CalendarBotParam } & BotRequest)
  /** DELETE /calendar_events/{uuid}/bot */
  | ({ readonly type: 'DetachBot' } & BotRequest);

export type CalendarRejection = { readonly code: 'CALENDAR_NOT_FOUND'; readonly message: string };

/** `error`: refused for good by the provider; nothing syncs until the team asks again. */
export type CalendarStatus = 'connected' | 'synced' | 'error';

export interface PresentCalendar extends CalendarConnection {
  readonly kind: 'present';
  readonly removed: boolean;
  readonly status: CalendarStatus;
  /** requests so far (the connection counts as the first) and how many a finished round answered */
  readonly requests: number;
  readonly served: number;
  readonly full_requested: boolean;
  readonly cursor: string | null;
  readonly window: SyncWindow | null;
  readonly events: EventIndex;
  /** events changed since the last finished round */
  readonly round_changes: number;
  readonly channels: readonly PushChannel[];
  readonly last_failure: { readonly reason: SyncFailure; readonly message: string } | null;
  readonly push_unavailable: string | null;
  readonly bot_params: BotParams;
}

export type CalendarState = { readonly kind: 'absent' } | PresentCalendar;

const initialState = (): CalendarState => ({ kind: 'absent' });
const emit = (...events: CalendarEvent[]) => E.right<CalendarRejection, readonly CalendarEvent[]>(events);
const noEvents = emit();
const notFound = E.left<CalendarRejection, readonly CalendarEvent[]>({ code: 'CALENDAR_NOT_FOUND', message: 'Calendar not found' });

const live = (state: CalendarState): state is PresentCalendar => state.kind === 'present' && !state.removed;

/** A request waits until a round answers it; a second one meanwhile adds nothing (a full one upgrades it). */
export const hasPendingRequest = (state: PresentCalendar): boolean => state.requests > state.served;

const recordChanges = (state: PresentCalendar, changes: readonly ProviderChange[], now: string) => {
  const ids = { calendar_id: state.calendar_id, team_id: state.team_id };
  const events: CalendarEvent[] = [];
  // The same event may come twice in one batch (Graph says so): each is judged against what came before it.
  let index = state.events;
  for (const change of changes) {
    if (change.kind === 'upsert') {
      const known = index.get(change.event.provider_event_id);
      if (known && !known.cancelled && known.fingerprint === change.event.fingerprint) continue;
      const event = { ...change.event, event_id: known?.event_id ?? change.event.event_id };
      events.push({ type: 'CalendarEventUpserted', data: { ...ids, change: known && !known.cancelled ? 'updated' : 'created', event, at: now } });
      index = index.set(event.provider_event_id, knownOf(event));
    } else {
      const known = index.get(change.provider_event_id);
      if (!known || known.cancelled) continue;
      events.push(cancelled(state, change.provider_event_id, known, now));
      index = index.set(change.provider_event_id, { ...known, cancelled: true });
    }
  }
  return emit(...events);
};

const knownOf = (event: CalendarEventData): KnownEvent => ({
  event_id: event.event_id,
  fingerprint: event.fingerprint,
  cancelled: false,
  start_time: event.start_time,
  series_id: event.series_id,
  name: event.name,
});

/** The cancellation carries what its webhook says about the event (name, series, start). */
const cancelled = (state: PresentCalendar, providerEventId: string, known: KnownEvent, now: string): CalendarEvent => ({
  type: 'CalendarEventCancelled',
  data: {
    calendar_id: state.calendar_id,
    team_id: state.team_id,
    event_id: known.event_id,
    provider_event_id: providerEventId,
    series_id: known.series_id,
    name: known.name,
    start_time: known.start_time,
    at: now,
  },
});

const insideWindow = (startTime: string, window: SyncWindow): boolean => {
  const start = toMillis(startTime);
  return start >= toMillis(window.start) && start <= toMillis(window.end);
};

const completeSync = (state: PresentCalendar, command: Extract<CalendarCommand, { type: 'CompleteSync' }>) => {
  const gone: CalendarEvent[] = [];
  if (command.seen !== null) {
    for (const [providerEventId, known] of state.events.entries()) {
      if (known.cancelled || command.seen.has(providerEventId) || !insideWindow(known.start_time, command.window)) continue;
      gone.push(cancelled(state, providerEventId, known, command.now));
    }
  }
  const serves = Math.max(state.served, Math.min(command.serves, state.requests));
  const eventsSynced = state.round_changes + gone.length;
  const nothingNew = eventsSynced === 0 && command.cursor === state.cursor && serves === state.served && command.sync_type === 'incremental' && state.status === 'synced' && state.last_failure === null;
  if (nothingNew) return noEvents;
  return emit(...gone, {
    type: 'CalendarSynced',
    data: {
      calendar_id: state.calendar_id,
      team_id: state.team_id,
      sync_type: command.sync_type,
      cursor: command.cursor,
      window: command.window,
      events_synced: eventsSynced,
      served: serves,
      at: command.now,
    },
  });
};

/** A failure for good answers the requests (nothing more can be done until asked again); one for now does not. */
const failSync = (state: PresentCalendar, command: Extract<CalendarCommand, { type: 'FailSync' }>) => {
  const forGood = command.reason !== 'provider_unavailable';
  const serves = forGood ? Math.max(state.served, Math.min(command.serves, state.requests)) : state.served;
  const sameAsBefore = state.last_failure?.reason === command.reason && state.last_failure.message === command.message && serves === state.served;
  if (sameAsBefore) return noEvents;
  return emit({
    type: 'CalendarSyncFailed',
    data: { calendar_id: state.calendar_id, team_id: state.team_id, reason: command.reason, message: command.message, served: serves, at: command.now },
  });
};

const decide = (command: CalendarCommand, state: CalendarState) => {
  if (command.type === 'Connect') {
    // The same id again is a retry of the same request.
    if (state.kind === 'present') return noEvents;
    const { type: _type, now, ...data } = command;
    return emit({ type: 'CalendarConnected', data: { ...data, at: now } });
  }
  if (command.type === 'ClosePushChannel') {
    // Also after removal: closing the provider's channels is what removal leads to.
    if (state.kind !== 'present' || !state.channels.some((c) => c.channel_id === command.channel_id)) return noEvents;
    return emit({ type: 'CalendarPushChannelClosed', data: { calendar_id: state.calendar_id, channel_id: command.channel_id, at: command.now } });
  }
  if (!live(state)) return ['RequestSync', 'Remove', 'AttachBot', 'DetachBot'].includes(command.type) ? notFound : noEvents;
  const ids = { calendar_id: state.calendar_id };
  switch (command.type) {
    case 'RotateRefreshToken':
      return emit({ type: 'CalendarRefreshTokenRotated', data: { ...ids, refresh_token: command.refresh_token, at: command.now } });
    case 'RequestSync': {
      if (command.team_id !== null && command.team_id !== state.team_id) return notFound;
      // A calendar refused for good syncs again only when its team asks, not on the provider's word.
      if (state.status === 'error' && command.reason === 'push') return noEvents;
      if (hasPendingRequest(state) && (state.full_requested || !command.full)) return noEvents;
      return emit({ type: 'CalendarSyncRequested', data: { ...ids, reason: command.reason, full: command.full, at: command.now } });
    }
    case 'RecordChanges':
      return recordChanges(state, command.changes, command.now);
    case 'CompleteSync':
      return completeSync(state, command);
    case 'FailSync':
      return failSync(state, command);
    case 'OpenPushChannel':
      if (state.channels.some((c) => c.channel_id === command.channel.channel_id)) return noEvents;
      return emit({ type: 'CalendarPushChannelOpened', data: { ...ids, channel: command.channel, at: command.now } });
    case 'RenewPushChannel': {
      const channel = state.channels.find((c) => c.channel_id === command.channel_id);
      if (!channel || channel.expires_at === command.expires_at) return noEvents;
      return emit({ type: 'CalendarPushChannelRenewed', data: { ...ids, channel_id: command.channel_id, expires_at: command.expires_at, at: command.now } });
    }
    case 'NotePushUnavailable':
      if (state.push_unavailable === command.message) return noEvents;
      return emit({ type: 'CalendarPushUnavailable', data: { ...ids, message: command.message, at: command.now } });
    case 'Remove':
      if (command.team_id !== state.team_id) return notFound;
      return emit({ type: 'CalendarRemoved', data: { ...ids, team_id: state.team_id, at: command.now } });
    case 'AttachBot': {
      const { type: _type, bot_param, ...request } = command;
      return emit(...attachBot({ ...ids, team_id: state.team_id }, state.bot_params, request, bot_param));
    }
    case 'DetachBot': {
      const { type: _type, ...request } = command;
      return emit(...detachBot({ ...ids, team_id: state.team_id }, state.bot_params, request));
    }
  }
};

const evolve = (state: CalendarState, event: CalendarEvent): CalendarState => {
  if (event.type === 'CalendarConnected') {
    const { at: _at, ...data } = event.data;
    return {
      kind: 'present',
      ...data,
      removed: false,
      status: 'connected',
      requests: 1,
      served: 0,
      full_requested: true,
      cursor: null,
      window: null,
      events: EventIndex.empty(),
      round_changes: 0,
      channels: [],
      last_failure: null,
      push_unavailable: null,
      bot_params: noBotParams,
    };
  }
  if (state.kind === 'absent') return state;
  switch (event.type) {
    case 'CalendarRefreshTokenRotated':
      return { ...state, refresh_token: event.data.refresh_token };
    case 'CalendarSyncRequested':
      return { ...state, requests: state.requests + 1, full_requested: state.full_requested || event.data.full };
    case 'CalendarEventUpserted':
      return { ...state, events: state.events.set(event.data.event.provider_event_id, knownOf(event.data.event)), round_changes: state.round_changes + 1 };
    case 'CalendarEventCancelled': {
      const known = state.events.get(event.data.provider_event_id);
      if (!known) return state;
      return { ...state, events: state.events.set(event.data.provider_event_id, { ...known, cancelled: true }), round_changes: state.round_changes + 1 };
    }
    case 'CalendarSynced': {
      const answered = event.data.served >= state.requests;
      return {
        ...state,
        status: 'synced',
        cursor: event.data.cursor,
        window: event.data.sync_type === 'incremental' ? state.window : event.data.window,
        served: event.data.served,
        full_requested: answered ? false : state.full_requested,
        round_changes: 0,
        last_failure: null,
      };
    }
    case 'CalendarSyncFailed': {
      const forGood = event.data.reason !== 'provider_unavailable';
      const answered = event.data.served >= state.requests;
      return {
        ...state,
        status: forGood ? 'error' : state.status,
        served: event.data.served,
        full_requested: answered ? false : state.full_requested,
        last_failure: { reason: event.data.reason, message: event.data.message },
      };
    }
    case 'CalendarPushChannelOpened':
      return { ...state, channels: [...state.channels, event.data.channel], push_unavailable: null };
    case 'CalendarPushChannelRenewed':
      return { ...state, channels: state.channels.map((c) => (c.channel_id === event.data.channel_id ? { ...c, expires_at: event.data.expires_at } : c)) };
    case 'CalendarPushChannelClosed':
      return { ...state, channels: state.channels.filter((c) => c.channel_id !== event.data.channel_id) };
    case 'CalendarPushUnavailable':
      return { ...state, push_unavailable: event.data.message };
    case 'CalendarRemoved':
      return { ...state, removed: true };
    case 'CalendarBotParamsSet':
    case 'CalendarBotParamsCleared':
      return { ...state, bot_params: evolveBotParams(state.bot_params, event) };
    case 'CalendarEventBotLinked':
    case 'CalendarEventBotUnlinked':
      // Kept in each event's own stream (event-bot-link.ts), never in the calendar's.
      return state;
  }
};

export const calendarDecider: Decider<CalendarCommand, CalendarEvent, CalendarState, CalendarRejection> = { decide, evolve, initialState };
