import assert from 'node:assert/strict';
import { isRight } from 'fp-ts/Either';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botDecider, type BotCommand } from '../../src/domain/bot/bot-decider';
import { BotEvent } from '../../src/domain/bot/bot-events';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(botDecider, BotEvent);

const BOT = 'b0e5a4a2-0000-4000-8000-0000000000aa';
const TEAM = 'team-0001';
const T0 = '2026-03-02T09:00:00.000Z';
const JOIN_AT = at(T0, { h: 2 });
const LATER = at(T0, { h: 1 });
const noUsage = { recorded_seconds: 0, waiting_room_seconds: 0 };

const { storage: _storage, retention_days: _retention, ...requestedConfig } = defaultBotConfig();
const definition = {
  meeting_url: 'https://meet.google.com/abc-defg-hij',
  platform: 'mt' as const,
  bot_name: 'Notetaker',
  extra: { customer: 'acme' },
  config: requestedConfig,
};
const createdBy = { key_id: 'key-1', api_key: { sealed: 'sealed-key' } };
/** Another key of the team (a Sending Access key, say) that changes the bot. */
const changedBy = { key_id: 'key-2', api_key: { sealed: 'sealed-other-key' } };

// ---- events ---------------------------------------------------------------------------------------------

const scheduled: BotEvent = {
  type: 'BotScheduled',
  data: { bot_id: BOT, team_id: TEAM, ...definition, created_by: createdBy, join_at: JOIN_AT, at: T0 },
};
const changedDefinition = { ...definition, bot_name: 'Renamed', meeting_url: 'https://meet.google.com/xyz-wxyz-xyz' };
const NEW_JOIN_AT = at(T0, { h: 3 });
const changed: BotEvent = {
  type: 'BotScheduleChanged',
  data: { bot_id: BOT, ...changedDefinition, created_by: changedBy, join_at: NEW_JOIN_AT, at: at(T0, { m: 10 }) },
};
const queuedAt = (now: string, def = definition, by: typeof createdBy | null = createdBy): BotEvent => ({
  type: 'BotCreated',
  data: { bot_id: BOT, team_id: TEAM, ...def, config: { ...def.config, storage: { kind: 'service' }, retention_days: 30 }, created_by: by, created_at: now },
});
const cancelled = (now: string): BotEvent => ({
  type: 'BotFailed',
  data: { bot_id: BOT, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'The scheduled bot was cancelled before its time.', usage: noUsage, at: now },
});

// ---- commands -------------------------------------------------------------------------------------------

const schedule = (joinAt: string, now = T0): BotCommand => ({
  type: 'ScheduleBot', bot_id: BOT, team_id: TEAM, ...definition, created_by: createdBy, join_at: joinAt, now,
});
const change = (version: number, joinAt = NEW_JOIN_AT, now = at(T0, { m: 10 })): BotCommand => ({
  type: 'ChangeSchedule', schedule_version: version, ...changedDefinition, created_by: changedBy, join_at: joinAt, now,
});
/** The team's settings at the queueing: its bucket and retention of that moment. */
const settings = { storage: { kind: 'service' as const }, retention_days: 30 };
const queue = (version: number, now = at(JOIN_AT, { s: -5 })): BotCommand => ({ type: 'QueueScheduledBot', schedule_version: version, settings, now });
const refuse = (code: string, now = at(JOIN_AT, { s: -5 })): BotCommand => ({ type: 'RefuseScheduledBot', error_code: code, error_message: `refused: ${code}`, now });
const cancel = (now = LATER): BotCommand => ({ type: 'CancelScheduledBot', now });

describe('scheduled bot decider', () => {
  describe('scheduling', () => {
    it('given nothing, when a bot is scheduled for later, then BotScheduled holds its definition and its time', () => {
      spec.given([]).when(schedule(JOIN_AT)).then([scheduled]);
    });

    it('given a scheduled bot, when the same bot is scheduled again (a retry), then nothing', () => {
      spec.given([scheduled]).when(schedule(JOIN_AT)).thenNothing();
    });

    it('when join_at is not in the future, then INVALID_JOIN_AT', () => {
      spec.given([]).when(schedule(T0)).thenRejects({ code: 'INVALID_JOIN_AT' });
      spec.given([]).when(schedule(at(T0, { s: -1 }))).thenRejects({ code: 'INVALID_JOIN_AT' });
    });

    it('when join_at is more than a year ahead, then INVALID_JOIN_AT; exactly a year ahead is allowed', () => {
      spec.given([]).when(schedule('2027-03-02T09:00:00.001Z')).thenRejects({ code: 'INVALID_JOIN_AT' });
      spec.given([]).when(schedule('2027-03-02T09:00:00.000Z')).then([{ ...scheduled, data: { ...scheduled.data, join_at: '2027-03-02T09:00:00.000Z' } } as BotEvent]);
    });

    it('a scheduled bot has status scheduled, is not queued, and reserves nothing', () => {
      const state = stateAfter(botDecider, [scheduled]);
      assert.equal(state.kind, 'present');
      if (state.kind !== 'present') return;
      assert.equal(state.status, 'scheduled');
      assert.equal(state.queued, false);
      assert.equal(state.schedule?.join_at, JOIN_AT);
      assert.equal(state.schedule?.version, 1);
    });
  });

  describe('changing (PATCH) before its time', () => {
    it('given a scheduled bot, when its definition and time change, then BotScheduleChanged holds the whole new definition and the key that changed it', () => {
      spec.given([scheduled]).when(change(1)).then([changed]);
    });

    it('given a change read at an older version, then SCHEDULE_CHANGED (no lost update)', () => {
      spec.given([scheduled, changed]).when(change(1)).thenRejects({ code: 'SCHEDULE_CHANGED' });
      spec.given([scheduled, changed]).when(change(2, at(T0, { h: 4 }))).then([
        { type: 'BotScheduleChanged', data: { ...changed.data, join_at: at(T0, { h: 4 }) } } as BotEvent,
      ]);
    });

    it('when the new join_at is in the past, then INVALID_JOIN_AT', () => {
      spec.given([scheduled]).when(change(1, at(T0, { m: 5 }))).thenRejects({ code: 'INVALID_JOIN_AT' });
    });

    it('given a change that keeps join_at, then it is accepted even seconds before that time (the queueing decides)', () => {
      const now = at(JOIN_AT, { s: -2 });
      spec.given([scheduled]).when(change(1, JOIN_AT, now)).then([
        { type: 'BotScheduleChanged', data: { ...changed.data, join_at: JOIN_AT, at: now } } as BotEvent,
      ]);
    });

    it('given a bot already queued, or cancelled, then BOT_STATUS', () => {
      spec.given([scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]).when(change(1)).thenRejects({ code: 'BOT_STATUS', status: 'queued' });
      spec.given([scheduled, cancelled(LATER)]).when(change(1)).thenRejects({ code: 'BOT_STATUS', status: 'cancelled' });
    });
  });

  describe('queueing at its time', () => {
    it('given a scheduled bot, when it is queued, then BotCreated with its definition, the team’s settings of that moment and the queueing time', () => {
      const now = at(JOIN_AT, { s: -5 });
      spec.given([scheduled]).when(queue(1, now)).then([queuedAt(now)]);
    });

    it('given a changed bot, then BotCreated carries the changed definition and acts for the key that changed it, not the one that scheduled it', () => {
      const now = at(NEW_JOIN_AT, { s: -5 });
      spec.given([scheduled, changed]).when(queue(2, now)).then([queuedAt(now, changedDefinition, changedBy)]);
    });

    it('given a change recorded before changes named their key, then BotCreated acts for no key (never the first one by default)', () => {
      const now = at(NEW_JOIN_AT, { s: -5 });
      const { created_by: _unknown, ...olderChange } = changed.data as Extract<BotEvent, { type: 'BotScheduleChanged' }>['data'];
      // As the store reads it back: decoded by the event codec.
      const older = BotEvent.decode({ type: 'BotScheduleChanged', data: olderChange });
      assert.ok(isRight(older));
      spec.given([scheduled, older.right]).when(queue(2, now)).then([queuedAt(now, changedDefinition, null)]);
    });

    it('given a definition changed after the queueing began, then SCHEDULE_CHANGED', () => {
      spec.given([scheduled, changed]).when(queue(1)).thenRejects({ code: 'SCHEDULE_CHANGED' });
    });

    it('given a bot already queued, when it is queued again (a retry), then nothing', () => {
      spec.given([scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]).when(queue(1)).thenNothing();
    });

    it('a queued scheduled bot is a queued bot like any other', () => {
      const state = stateAfter(botDecider, [scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]);
      assert.equal(state.kind === 'present' && state.status, 'queued');
      assert.equal(state.kind === 'present' && state.queued, true);
      assert.equal(state.kind === 'present' && state.schedule, null);
      spec.given([scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]).when({ type: 'DispatchBot', worker_id: 'w-1', run_id: 'run-1', now: JOIN_AT }).then([
        { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'w-1', run_id: 'run-1', at: JOIN_AT } },
      ]);
    });

    it('given a cancelled bot, when the scheduler queues it, then BOT_STATUS: the cancel won', () => {
      spec.given([scheduled, cancelled(LATER)]).when(queue(1)).thenRejects({ code: 'BOT_STATUS', status: 'cancelled' });
    });
  });

  describe('a refused queueing ends the bot failed with the reason', () => {
    for (const code of ['DAILY_BOT_CAP_REACHED', 'INSUFFICIENT_TOKENS', 'BOT_ALREADY_EXISTS', 'SCHEDULED_TIME_MISSED']) {
      it(`${code}: BotFailed, nothing used`, () => {
        const now = at(JOIN_AT, { s: -5 });
        spec.given([scheduled]).when(refuse(code, now)).then([
          { type: 'BotFailed', data: { bot_id: BOT, error_code: code, error_message: `refused: ${code}`, usage: noUsage, at: now } },
        ]);
      });
    }

    it('given a bot cancelled meanwhile, then nothing (it has already ended)', () => {
      spec.given([scheduled, cancelled(LATER)]).when(refuse('INSUFFICIENT_TOKENS')).thenNothing();
    });

    it('given a bot already queued, then BOT_STATUS', () => {
      spec.given([scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]).when(refuse('INSUFFICIENT_TOKENS')).thenRejects({ code: 'BOT_STATUS' });
    });
  });

  describe('cancelling before its time (DELETE, or leave on a scheduled bot)', () => {
    it('given a scheduled bot, when it is cancelled, then it ends failed with EXITING_MEETING_BEFORE_RECORD', () => {
      spec.given([scheduled]).when(cancel(LATER)).then([cancelled(LATER)]);
    });

    it('given a scheduled bot, when it is asked to leave, then the same cancellation', () => {
      spec.given([scheduled]).when({ type: 'RequestLeave', now: LATER }).then([cancelled(LATER)]);
    });

    it('a cancelled bot is cancelled (the spec\'s "scheduled bot not yet started -> cancelled"), not failed: a refused one is failed', () => {
      const after = (events: BotEvent[]) => {
        const state = stateAfter(botDecider, events);
        return state.kind === 'present' ? state.status : null;
      };
      assert.equal(after([scheduled, cancelled(LATER)]), 'cancelled');
      const refused: BotEvent = { type: 'BotFailed', data: { ...cancelled(LATER).data as { bot_id: string; error_message: string; usage: typeof noUsage; at: string }, error_code: 'INSUFFICIENT_TOKENS' } };
      assert.equal(after([scheduled, refused]), 'failed');
      spec.given([scheduled, cancelled(LATER)]).when({ type: 'RequestLeave', now: LATER }).thenRejects({ code: 'BOT_STATUS', status: 'cancelled' });
    });

    it('given a bot queued at its time, then DELETE is refused with BOT_STATUS (leave is what stops it now)', () => {
      spec.given([scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]).when(cancel(JOIN_AT)).thenRejects({ code: 'BOT_STATUS', status: 'queued' });
    });

    it('given a cancelled bot, then a second cancel is refused with BOT_STATUS', () => {
      spec.given([scheduled, cancelled(LATER)]).when(cancel()).thenRejects({ code: 'BOT_STATUS', status: 'cancelled' });
    });

    it('cancel and queue decided on the same history: whichever is recorded first, the other is refused', () => {
      spec.given([scheduled, cancelled(LATER)]).when(queue(1)).thenRejects({ code: 'BOT_STATUS' });
      spec.given([scheduled, queuedAt(at(JOIN_AT, { s: -5 }))]).when(cancel()).thenRejects({ code: 'BOT_STATUS' });
    });
  });

  describe('a scheduled bot does not run before its time', () => {
    it('given a scheduled bot, when a dispatcher tries it, then nothing', () => {
      spec.given([scheduled]).when({ type: 'DispatchBot', worker_id: 'w-1', run_id: 'run-1', now: LATER }).thenNothing();
    });

    it('given a scheduled bot, when a status is reported for it, then INVALID_TRANSITION', () => {
      spec.given([scheduled]).when({ type: 'ReportStatus', status: 'joining_call', now: LATER }).thenRejects({ code: 'INVALID_TRANSITION', status: 'scheduled' });
    });

    it('given a scheduled bot, then chat is refused with BOT_STATUS', () => {
      spec.given([scheduled]).when({ type: 'CheckChatMessageAllowed', now: LATER }).thenRejects({ code: 'BOT_STATUS', status: 'scheduled' });
    });
  });
});
