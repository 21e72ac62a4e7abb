import assert from 'node:assert/strict';
import { CalendarEvent } from '../../src/domain/calendar/calendar-events';
import { eventBotLinkDecider, planEventBot, type EventBotLink, type EventBotLinkEvent } from '../../src/domain/calendar/event-bot-link';
import { deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(eventBotLinkDecider, CalendarEvent as never);
const T0 = '2026-05-04T08:00:00.000Z';
const ids = { calendar_id: 'cal-1', team_id: 'team-1', event_id: 'ev-1' };
const link = (fields: Partial<EventBotLink> = {}): EventBotLink => ({ bot_id: 'bot-1', join_at: '2026-05-04T10:00:00.000Z', meeting_url: 'https://meet.google.com/abc-defg-hij', param_fingerprint: 'fp-1', ...fields });
const linked = (l: EventBotLink): EventBotLinkEvent => ({ type: 'CalendarEventBotLinked', data: { ...ids, ...l, at: T0 } });
const unlinked = (botId: string): EventBotLinkEvent => ({ type: 'CalendarEventBotUnlinked', data: { ...ids, bot_id: botId, at: T0 } });

describe('a calendar event\'s bot', () => {
  describe('its link (calendar-event-bot-<event id>)', () => {
    it('given none, when linked, then linked; the same link again records nothing', () => {
      spec.given([]).when({ type: 'Link', ...ids, ...link(), now: T0 }).then([linked(link())]);
      spec.given([linked(link())]).when({ type: 'Link', ...ids, ...link(), now: T0 }).thenNothing();
    });
    it('unlinking another bot than the linked one records nothing (a late retry)', () => {
      spec.given([linked(link())]).when({ type: 'Unlink', ...ids, bot_id: 'bot-0', now: T0 }).thenNothing();
      spec.given([linked(link())]).when({ type: 'Unlink', ...ids, bot_id: 'bot-1', now: T0 }).then([unlinked('bot-1')]);
    });
    it('counts the bots it ever had (the next one\'s id comes from it); a moved bot is still the same one', () => {
      const state = stateAfter(eventBotLinkDecider, [linked(link()), linked(link({ join_at: '2026-05-04T11:00:00.000Z' })), unlinked('bot-1'), linked(link({ bot_id: 'bot-2' }))]);
      assert.equal(state.bots_made, 2);
      assert.equal(state.link?.bot_id, 'bot-2');
    });
  });

  describe('following the event (planEventBot)', () => {
    const wanted = link();
    it('an event that wants a bot and has none gets one scheduled and linked', () => {
      assert.deepEqual(planEventBot({ link: null, linkedBot: null, wanted, sharedElsewhere: false }), [{ kind: 'schedule', bot_id: 'bot-1' }, { kind: 'link', link: wanted }]);
    });
    it('nothing changed: nothing to do', () => {
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'scheduled', wanted, sharedElsewhere: false }), []);
    });
    it('a moved event moves its scheduled bot', () => {
      const moved = link({ join_at: '2026-05-05T10:00:00.000Z' });
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'scheduled', wanted: moved, sharedElsewhere: false }), [{ kind: 'change', bot_id: 'bot-1' }, { kind: 'link', link: moved }]);
    });
    it('a bot that already started is not moved', () => {
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'started', wanted: link({ join_at: '2026-05-05T10:00:00.000Z' }), sharedElsewhere: false }), []);
    });
    it('a cancelled event (or removed bot) cancels a scheduled bot, makes a queued one leave, leaves an ended one', () => {
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'scheduled', wanted: null, sharedElsewhere: false }), [{ kind: 'cancel', bot_id: 'bot-1' }, { kind: 'unlink', bot_id: 'bot-1' }]);
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'started', wanted: null, sharedElsewhere: false }), [{ kind: 'leave', bot_id: 'bot-1' }, { kind: 'unlink', bot_id: 'bot-1' }]);
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'ended', wanted: null, sharedElsewhere: false }), [{ kind: 'unlink', bot_id: 'bot-1' }]);
      assert.deepEqual(planEventBot({ link: null, linkedBot: null, wanted: null, sharedElsewhere: false }), []);
    });
    it('a bot shared with another event through a deduplication key stays while that event wants it', () => {
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'scheduled', wanted: null, sharedElsewhere: true }), [{ kind: 'unlink', bot_id: 'bot-1' }]);
    });
    it('another bot wanted (a new time under a deduplication key, or the old one ended): the old one stops, the new one is scheduled', () => {
      const next = link({ bot_id: 'bot-2' });
      assert.deepEqual(planEventBot({ link: wanted, linkedBot: 'scheduled', wanted: next, sharedElsewhere: false }), [
        { kind: 'cancel', bot_id: 'bot-1' }, { kind: 'unlink', bot_id: 'bot-1' }, { kind: 'schedule', bot_id: 'bot-2' }, { kind: 'link', link: next },
      ]);
    });
  });
});
