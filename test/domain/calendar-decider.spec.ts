import assert from 'node:assert/strict';
import { calendarDecider, hasPendingRequest, type CalendarCommand, type ProviderChange } from '../../src/domain/calendar/calendar-decider';
import { CalendarEvent, type CalendarEventData } from '../../src/domain/calendar/calendar-events';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(calendarDecider, CalendarEvent);

const T0 = '2026-05-04T08:00:00.000Z';
const CAL = 'cal-1';
const TEAM = 'team-1';
const WINDOW = { start: at(T0, { h: -24 }), end: at(T0, { h: 24 * 90 }) };
const sealed = (name: string) => ({ sealed: `v1.${name}.tag.body` });

const connect: CalendarCommand = {
  type: 'Connect', calendar_id: CAL, team_id: TEAM, platform: 'google', provider_calendar_id: 'alice@example.com', name: 'Alice', email: 'alice@example.com',
  oauth_client_id: 'client-1', oauth_client_secret: sealed('secret'), refresh_token: sealed('refresh'), webhook_url: null,
  created_by: { key_id: 'key-1', api_key: sealed('key') }, now: T0,
};
const { type: _t, now: _n, ...connectData } = connect as Extract<CalendarCommand, { type: 'Connect' }>;
const connected: CalendarEvent = { type: 'CalendarConnected', data: { ...connectData, at: T0 } };

const event = (providerId: string, fields: Partial<CalendarEventData> = {}): CalendarEventData => ({
  event_id: `uuid-${providerId}`, provider_event_id: providerId, series_id: null, name: `Meeting ${providerId}`, meeting_url: 'https://meet.google.com/abc-defg-hij',
  start_time: at(T0, { h: 2 }), end_time: at(T0, { h: 3 }), attendees: [{ email: 'bob@example.com', name: 'Bob' }], organizer_email: 'alice@example.com',
  is_organizer: true, is_recurring: false, provider_updated_at: T0, raw: { id: providerId }, fingerprint: `fp-${providerId}-1`, ...fields,
});
const upsert = (e: CalendarEventData): ProviderChange => ({ kind: 'upsert', event: e });
const removed = (providerId: string): ProviderChange => ({ kind: 'removed', provider_event_id: providerId });
const record = (...changes: ProviderChange[]): CalendarCommand => ({ type: 'RecordChanges', changes, now: at(T0, { m: 1 }) });
const upserted = (e: CalendarEventData, change: 'created' | 'updated', now = at(T0, { m: 1 })): CalendarEvent => ({
  type: 'CalendarEventUpserted', data: { calendar_id: CAL, team_id: TEAM, change, event: e, at: now },
});
const cancelledEvent = (e: CalendarEventData, now = at(T0, { m: 1 })): CalendarEvent => ({
  type: 'CalendarEventCancelled',
  data: { calendar_id: CAL, team_id: TEAM, event_id: e.event_id, provider_event_id: e.provider_event_id, series_id: e.series_id, name: e.name, start_time: e.start_time, at: now },
});
const synced = (fields: { sync_type?: 'initial' | 'incremental' | 'full'; cursor?: string; events_synced?: number; served?: number; now?: string } = {}): CalendarEvent => ({
  type: 'CalendarSynced',
  data: {
    calendar_id: CAL, team_id: TEAM, sync_type: fields.sync_type ?? 'initial', cursor: fields.cursor ?? 'token-1', window: WINDOW,
    events_synced: fields.events_synced ?? 0, served: fields.served ?? 1, at: fields.now ?? at(T0, { m: 2 }),
  },
});
const complete = (fields: { sync_type?: 'initial' | 'incremental' | 'full'; cursor?: string; seen?: string[] | null; serves?: number } = {}): CalendarCommand => ({
  type: 'CompleteSync', sync_type: fields.sync_type ?? 'initial', cursor: fields.cursor ?? 'token-1', window: WINDOW,
  seen: fields.seen === undefined ? null : fields.seen === null ? null : new Set(fields.seen), serves: fields.serves ?? 1, now: at(T0, { m: 2 }),
});
const requestSync = (reason: 'push' | 'api', full = false, team_id: string | null = reason === 'api' ? TEAM : null): CalendarCommand => ({
  type: 'RequestSync', team_id, reason, full, now: at(T0, { m: 5 }),
});
const requested = (reason: 'push' | 'api', full = false): CalendarEvent => ({ type: 'CalendarSyncRequested', data: { calendar_id: CAL, reason, full, at: at(T0, { m: 5 }) } });

const a = event('a');
const b = event('b');

describe('calendar decider', () => {
  describe('connecting', () => {
    it('given nothing, when a calendar is connected, then it is, with its secrets sealed as given and a first sync owed', () => {
      spec.given([]).when(connect).then([connected]);
      const state = stateAfter(calendarDecider, [connected]);
      assert.ok(state.kind === 'present' && hasPendingRequest(state) && state.full_requested);
    });
    it('given it is connected, when the same connection comes again (a retry), then nothing more', () => {
      spec.given([connected]).when(connect).thenNothing();
    });
  });

  describe('recording what a round read', () => {
    it('new events are created, in the order read', () => {
      spec.given([connected]).when(record(upsert(a), upsert(b))).then([upserted(a, 'created'), upserted(b, 'created')]);
    });
    it('an event seen again unchanged records nothing; a changed one is an update under its first id', () => {
      const moved = event('a', { start_time: at(T0, { h: 5 }), end_time: at(T0, { h: 6 }), fingerprint: 'fp-a-2', event_id: 'another-id' });
      spec.given([connected, upserted(a, 'created')]).when(record(upsert(a))).thenNothing();
      spec.given([connected, upserted(a, 'created')]).when(record(upsert(moved))).then([upserted({ ...moved, event_id: a.event_id }, 'updated')]);
    });
    it('the same event twice in one batch is judged against the first', () => {
      spec.given([connected]).when(record(upsert(a), upsert(a))).then([upserted(a, 'created')]);
    });
    it('a removal cancels a known event once; an unknown or already cancelled one records nothing', () => {
      spec.given([connected, upserted(a, 'created')]).when(record(removed('a'))).then([cancelledEvent(a)]);
      spec.given([connected, upserted(a, 'created'), cancelledEvent(a)]).when(record(removed('a'))).thenNothing();
      spec.given([connected]).when(record(removed('zzz'))).thenNothing();
    });
    it('an event cancelled and then seen again is created again, under the same id', () => {
      spec.given([connected, upserted(a, 'created'), cancelledEvent(a)]).when(record(upsert(a))).then([upserted(a, 'created')]);
    });
  });

  describe('finishing a round', () => {
    it('the first round records its cursor, its window, the events it changed, and answers the connection', () => {
      spec.given([connected, upserted(a, 'created'), upserted(b, 'created')]).when(complete()).then([synced({ events_synced: 2 })]);
      const state = stateAfter(calendarDecider, [connected, upserted(a, 'created'), synced({ events_synced: 1 })]);
      assert.ok(state.kind === 'present' && !hasPendingRequest(state) && state.status === 'synced' && state.cursor === 'token-1');
    });
    it('an incremental round that changed nothing, kept the cursor and answered nothing new records nothing', () => {
      spec.given([connected, synced()]).when(complete({ sync_type: 'incremental' })).thenNothing();
    });
    it('an incremental round with a new cursor records it', () => {
      spec.given([connected, synced()]).when(complete({ sync_type: 'incremental', cursor: 'token-2' })).then([synced({ sync_type: 'incremental', cursor: 'token-2' })]);
    });
    it('a full round cancels the known events inside the window it did not see, and leaves those outside it', () => {
      const old = event('old', { start_time: at(T0, { h: -48 }), end_time: at(T0, { h: -47 }) });
      const given = [connected, upserted(a, 'created'), upserted(b, 'created'), upserted(old, 'created'), synced({ events_synced: 3 })];
      const gone = cancelledEvent(b, at(T0, { m: 2 }));
      spec.given(given).when(complete({ sync_type: 'full', cursor: 'token-9', seen: ['a'] })).then([gone, synced({ sync_type: 'full', cursor: 'token-9', events_synced: 1 })]);
    });
  });

  describe('sync requests: kept until a round answers them, never piled up', () => {
    it('a push after the first round is recorded; a second one before a round answers it adds nothing', () => {
      spec.given([connected, synced()]).when(requestSync('push')).then([requested('push')]);
      spec.given([connected, synced(), requested('push')]).when(requestSync('push')).thenNothing();
    });
    it('a full request upgrades a pending plain one', () => {
      spec.given([connected, synced(), requested('push')]).when(requestSync('api', true)).then([requested('api', true)]);
    });
    it('a round that began before a request does not answer it', () => {
      const state = stateAfter(calendarDecider, [connected, synced(), requested('push'), synced({ sync_type: 'incremental', cursor: 'token-2', served: 1 })]);
      assert.ok(state.kind === 'present' && hasPendingRequest(state));
    });
    it('another team’s request, or one for a removed calendar, is CALENDAR_NOT_FOUND', () => {
      spec.given([connected]).when(requestSync('api', false, 'team-2')).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
      const removedEvent: CalendarEvent = { type: 'CalendarRemoved', data: { calendar_id: CAL, team_id: TEAM, at: T0 } };
      spec.given([connected, removedEvent]).when(requestSync('api')).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
      spec.given([]).when(requestSync('push')).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
    });
  });

  describe('failures', () => {
    const fail = (reason: 'credentials_revoked' | 'provider_unavailable', message = 'invalid_grant: Token has been expired or revoked.'): CalendarCommand => ({
      type: 'FailSync', reason, message, serves: 1, now: at(T0, { m: 3 }),
    });
    const failed = (reason: 'credentials_revoked' | 'provider_unavailable', served: number, message = 'invalid_grant: Token has been expired or revoked.'): CalendarEvent => ({
      type: 'CalendarSyncFailed', data: { calendar_id: CAL, team_id: TEAM, reason, message, served, at: at(T0, { m: 3 }) },
    });
    it('revoked credentials stop the calendar: status error, the request answered, pushes ignored until the team asks', () => {
      spec.given([connected]).when(fail('credentials_revoked')).then([failed('credentials_revoked', 1)]);
      const state = stateAfter(calendarDecider, [connected, failed('credentials_revoked', 1)]);
      assert.ok(state.kind === 'present' && state.status === 'error' && !hasPendingRequest(state));
      spec.given([connected, failed('credentials_revoked', 1)]).when(requestSync('push')).thenNothing();
      spec.given([connected, failed('credentials_revoked', 1)]).when(requestSync('api')).then([requested('api')]);
    });
    it('an unavailable provider leaves the request pending (retried later); the same failure again records nothing', () => {
      spec.given([connected]).when(fail('provider_unavailable', 'HTTP 503')).then([failed('provider_unavailable', 0, 'HTTP 503')]);
      spec.given([connected, failed('provider_unavailable', 0, 'HTTP 503')]).when(fail('provider_unavailable', 'HTTP 503')).thenNothing();
    });
    it('a success after a failure is recorded even when it changed nothing', () => {
      spec.given([connected, synced(), failed('provider_unavailable', 1, 'HTTP 503')]).when(complete({ sync_type: 'incremental' })).then([synced({ sync_type: 'incremental' })]);
    });
  });

  describe('refresh tokens, push channels and removal', () => {
    const channel = { channel_id: 'ch-1', provider_channel_id: 'res-1', expires_at: at(T0, { h: 24 * 7 }) };
    const opened: CalendarEvent = { type: 'CalendarPushChannelOpened', data: { calendar_id: CAL, channel, at: T0 } };
    const removedEvent: CalendarEvent = { type: 'CalendarRemoved', data: { calendar_id: CAL, team_id: TEAM, at: at(T0, { h: 1 }) } };
    it('a rotated refresh token replaces the stored one', () => {
      spec.given([connected]).when({ type: 'RotateRefreshToken', refresh_token: sealed('new'), now: T0 }).then([
        { type: 'CalendarRefreshTokenRotated', data: { calendar_id: CAL, refresh_token: sealed('new'), at: T0 } },
      ]);
    });
    it('a channel opens once, renews to a new expiry, and closes once', () => {
      spec.given([connected]).when({ type: 'OpenPushChannel', channel, now: T0 }).then([opened]);
      spec.given([connected, opened]).when({ type: 'OpenPushChannel', channel, now: T0 }).thenNothing();
      spec.given([connected, opened]).when({ type: 'RenewPushChannel', channel_id: 'ch-1', expires_at: at(T0, { h: 24 * 8 }), now: T0 }).then([
        { type: 'CalendarPushChannelRenewed', data: { calendar_id: CAL, channel_id: 'ch-1', expires_at: at(T0, { h: 24 * 8 }), at: T0 } },
      ]);
      spec.given([connected, opened]).when({ type: 'ClosePushChannel', channel_id: 'ch-1', now: T0 }).then([
        { type: 'CalendarPushChannelClosed', data: { calendar_id: CAL, channel_id: 'ch-1', at: T0 } },
      ]);
      spec.given([connected]).when({ type: 'ClosePushChannel', channel_id: 'ch-1', now: T0 }).thenNothing();
    });
    it('a removed calendar still closes its channels, and records nothing else', () => {
      spec.given([connected, opened, removedEvent]).when({ type: 'ClosePushChannel', channel_id: 'ch-1', now: T0 }).then([
        { type: 'CalendarPushChannelClosed', data: { calendar_id: CAL, channel_id: 'ch-1', at: T0 } },
      ]);
      spec.given([connected, removedEvent]).when(record(upsert(a))).thenNothing();
    });
    it('removal is the owning team’s; twice is CALENDAR_NOT_FOUND', () => {
      spec.given([connected]).when({ type: 'Remove', team_id: 'team-2', now: at(T0, { h: 1 }) }).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
      spec.given([connected]).when({ type: 'Remove', team_id: TEAM, now: at(T0, { h: 1 }) }).then([removedEvent]);
      spec.given([connected, removedEvent]).when({ type: 'Remove', team_id: TEAM, now: at(T0, { h: 2 }) }).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
    });
    it('a push channel the provider would not open is noted once per reason', () => {
      const note: CalendarCommand = { type: 'NotePushUnavailable', message: 'validation failed', now: T0 };
      spec.given([connected]).when(note).then([{ type: 'CalendarPushUnavailable', data: { calendar_id: CAL, message: 'validation failed', at: T0 } }]);
      spec.given([connected, { type: 'CalendarPushUnavailable', data: { calendar_id: CAL, message: 'validation failed', at: T0 } }]).when(note).thenNothing();
    });
  });
});
