import assert from 'node:assert/strict';
import type { CalendarEvent, CalendarEventData } from '../../src/domain/calendar/calendar-events';
import { EventIndex } from '../../src/domain/calendar/event-index';
import { meetingUrlIn } from '../../src/domain/calendar/meeting-url-in-text';
import { syncWindowAt, windowNeedsRoll } from '../../src/domain/calendar/sync-window';
import { calendarFailureMessages, calendarRoundMessages, type RoundChange } from '../../src/domain/webhooks/calendar-webhook-messages';
import { at } from './given-when-then';

const T0 = '2026-05-04T08:00:00.000Z';
const options = { sandboxHosts: false };

describe('calendar parts', () => {
  describe('the meeting link of an event', () => {
    it('the provider’s conference link first, when it names a meeting the service knows', () => {
      assert.equal(meetingUrlIn(['https://meet.google.com/abc-defg-hij'], ['see https://zoom.us/j/1'], options), 'https://meet.google.com/abc-defg-hij');
    });
    it('else the first known meeting link in the text, without the punctuation after it', () => {
      const text = 'Agenda: https://example.com/doc. Join (https://acme.zoom.us/j/123?pwd=x), or https://teams.microsoft.com/l/meetup-join/1';
      assert.equal(meetingUrlIn([null, 'https://example.com/not-a-meeting'], [null, text], options), 'https://acme.zoom.us/j/123?pwd=x');
    });
    it('none: null; sandbox hosts only when the service accepts them', () => {
      assert.equal(meetingUrlIn([], ['no link here', 'https://example.com/x'], options), null);
      assert.equal(meetingUrlIn(['https://mt.localhost:8443/abc-defg-hij'], [], options), null);
      assert.equal(meetingUrlIn(['https://mt.localhost:8443/abc-defg-hij'], [], { sandboxHosts: true }), 'https://mt.localhost:8443/abc-defg-hij');
    });
  });

  describe('the sync window', () => {
    it('a day back and 90 days ahead; read again once less than 60 days are left', () => {
      const now = Date.parse(T0);
      const window = syncWindowAt(now);
      assert.deepEqual(window, { start: at(T0, { h: -24 }), end: at(T0, { h: 24 * 90 }) });
      assert.equal(windowNeedsRoll(null, now), true);
      assert.equal(windowNeedsRoll(window, now + 29 * 24 * 3_600_000), false);
      assert.equal(windowNeedsRoll(window, now + 31 * 24 * 3_600_000), true);
    });
  });

  describe('the event index', () => {
    it('keeps every version it made: setting returns a new index and leaves the old one as it was', () => {
      let index = EventIndex.empty();
      const versions: EventIndex[] = [];
      for (let i = 0; i < 500; i += 1) {
        index = index.set(`e${i}`, { event_id: `u${i}`, fingerprint: 'f', cancelled: false, start_time: T0, series_id: null, name: `n${i}` });
        versions.push(index);
      }
      const updated = index.set('e7', { event_id: 'u7', fingerprint: 'g', cancelled: true, start_time: T0, series_id: null, name: 'n7' });
      assert.equal(index.size, 500);
      assert.equal(updated.size, 500);
      assert.equal(index.get('e7')?.fingerprint, 'f');
      assert.equal(updated.get('e7')?.fingerprint, 'g');
      assert.equal(versions[9]!.get('e10'), undefined);
      assert.equal(versions[10]!.get('e10')?.event_id, 'u10');
      assert.equal([...updated.entries()].length, 500);
    });
  });

  describe('calendar webhooks of a round', () => {
    const synced = (sync_type: 'initial' | 'incremental' | 'full', events_synced: number): Extract<CalendarEvent, { type: 'CalendarSynced' }>['data'] => ({
      calendar_id: 'cal-1', team_id: 'team-1', sync_type, cursor: 'c', window: { start: T0, end: at(T0, { h: 24 }) }, events_synced, served: 1, at: T0,
    });
    const event = (id: string, series: string | null, start: string): CalendarEventData => ({
      event_id: `uuid-${id}`, provider_event_id: id, series_id: series, name: series ? 'Weekly' : 'Lunch', meeting_url: 'https://meet.google.com/abc-defg-hij',
      start_time: start, end_time: at(start, { h: 1 }), attendees: [], organizer_email: null, is_organizer: false, is_recurring: series !== null,
      provider_updated_at: null, raw: {}, fingerprint: 'f',
    });
    const upserted = (e: CalendarEventData, change: 'created' | 'updated'): RoundChange => ({ kind: 'upserted', data: { calendar_id: 'cal-1', team_id: 'team-1', change, event: e, at: T0 } });
    const cancelled = (e: CalendarEventData): RoundChange => ({
      kind: 'cancelled',
      data: { calendar_id: 'cal-1', team_id: 'team-1', event_id: e.event_id, provider_event_id: e.provider_event_id, series_id: e.series_id, name: e.name, start_time: e.start_time, at: T0 },
    });

    it('the first round sends only the count', () => {
      const messages = calendarRoundMessages(synced('initial', 2), [upserted(event('a', null, T0), 'created'), upserted(event('b', null, T0), 'created')]);
      assert.deepEqual(messages.map((m) => m.event_type), ['calendar.events_synced']);
      assert.deepEqual(messages[0]!.payload, { event: 'calendar.events_synced', data: { calendar_id: 'cal-1', events_synced: 2, sync_type: 'initial' } });
    });

    it('a later round groups instances by series: created, updated and cancelled instances each in one message, then the count', () => {
      const i1 = event('s1_1', 's1', at(T0, { h: 24 }));
      const i2 = event('s1_2', 's1', at(T0, { h: 48 }));
      const i3 = event('s1_3', 's1', at(T0, { h: 72 }));
      const lone = event('lone', null, at(T0, { h: 5 }));
      const messages = calendarRoundMessages(synced('incremental', 4), [upserted(i1, 'updated'), cancelled(i2), upserted(lone, 'created'), upserted(i3, 'created')]);
      assert.deepEqual(messages.map((m) => m.event_type), ['calendar.event_created', 'calendar.event_updated', 'calendar.event_cancelled', 'calendar.event_created', 'calendar.events_synced']);
      assert.deepEqual(messages[0]!.payload.data, {
        calendar_id: 'cal-1', event_type: 'recurring', series_id: 's1', series_bot_scheduled: false,
        instances: [{ event_id: 'uuid-s1_3', title: 'Weekly', start_time: i3.start_time, end_time: i3.end_time, meeting_url: i3.meeting_url, bot_scheduled: false }],
      });
      assert.deepEqual((messages[2]!.payload.data as { cancelled_instances: unknown }).cancelled_instances, [{ event_id: 'uuid-s1_2', title: 'Weekly', start_time: i2.start_time }]);
      assert.equal((messages[3]!.payload.data as { event_type: string }).event_type, 'one_off');
    });

    it('an incremental round that changed nothing sends nothing', () => {
      assert.deepEqual(calendarRoundMessages(synced('incremental', 0), []), []);
    });

    it('a refusal for good is a calendar.error; a provider that is down for now is not', () => {
      const failed = (reason: 'credentials_revoked' | 'provider_unavailable') => ({ calendar_id: 'cal-1', team_id: 'team-1', reason, message: 'invalid_grant', served: 1, at: T0 });
      assert.deepEqual(calendarFailureMessages(failed('credentials_revoked'), 'microsoft').map((m) => m.payload), [
        { event: 'calendar.error', data: { calendar_id: 'cal-1', platform: 'microsoft', error: 'credentials_revoked', message: 'invalid_grant', status: 'error' } },
      ]);
      assert.deepEqual(calendarFailureMessages(failed('provider_unavailable'), 'google'), []);
    });
  });
});
