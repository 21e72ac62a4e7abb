import assert from 'node:assert/strict';
import { defaultBotConfig, type BotConfig, type RequestedBotConfig } from '../../src/domain/bot/bot-config';
import type { BotDefinition } from '../../src/domain/bot/bot-decider';
import type { BotEvent } from '../../src/domain/bot/bot-events';
import { botFactsOf, wasQueued, type BotFacts } from '../../src/domain/bot/bot-facts';
import { at } from './given-when-then';

const BOT = 'b0e5a4a2-0000-4000-8000-0000000000fa';
const TEAM = 'team-0001';
const T0 = '2026-03-02T09:00:00.000Z';
const JOIN_AT = at(T0, { h: 2 });
const MOVED_JOIN_AT = at(T0, { h: 3 });
const QUEUED_AT = at(MOVED_JOIN_AT, { s: -5 });
const fullKey = { key_id: 'key-full', api_key: { sealed: 'sealed-full' } };
const usage = { recorded_seconds: 42, waiting_room_seconds: 3 };

const transcription = { provider: 'Gladia', api_key: { sealed: 'sealed-gladia' }, custom_params: null };
const { storage: _storage, retention_days: _retention, ...defaults } = defaultBotConfig();
const requested: RequestedBotConfig = { ...defaults, recording_mode: 'audio_only', transcription };
/** the team's settings fixed in at the queueing */
const settings = { storage: { kind: 'service' as const }, retention_days: 30 };
const runConfig = (config: RequestedBotConfig): BotConfig => ({ ...config, ...settings });
const definition: BotDefinition = { meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'Notetaker', extra: { deal: 7 }, config: requested };

// ---- events ---------------------------------------------------------------------------------------------

const created: BotEvent = { type: 'BotCreated', data: { bot_id: BOT, team_id: TEAM, ...definition, config: runConfig(requested), created_by: fullKey, created_at: T0 } };
const scheduled = (def = definition, createdBy = fullKey): BotEvent => ({
  type: 'BotScheduled', data: { bot_id: BOT, team_id: TEAM, ...def, created_by: createdBy, join_at: JOIN_AT, at: T0 },
});
const scheduleChanged = (def: BotDefinition, createdBy: typeof fullKey | null = fullKey): BotEvent => ({
  type: 'BotScheduleChanged', data: { bot_id: BOT, ...def, created_by: createdBy, join_at: MOVED_JOIN_AT, at: at(T0, { m: 10 }) },
});
const queued = (def: BotDefinition, createdBy = fullKey): BotEvent => ({
  type: 'BotCreated', data: { bot_id: BOT, team_id: TEAM, ...def, config: runConfig(def.config), created_by: createdBy, created_at: QUEUED_AT },
});
const status = (s: 'joining_call' | 'in_waiting_room' | 'in_call_recording' | 'recording_paused', when: string): BotEvent => ({ type: 'StatusChanged', data: { bot_id: BOT, status: s, at: when } });
const completed = (when: string): BotEvent => ({ type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: when } });
const failed = (code: string, when: string): BotEvent => ({
  type: 'BotFailed', data: { bot_id: BOT, error_code: code, error_message: `ended: ${code}`, usage: { recorded_seconds: 0, waiting_room_seconds: 0 }, at: when },
});
/** What a bot does once it runs: joins, records, is told to leave and completes; transcription and artifacts change no fact. */
const runAndComplete = (from: string): BotEvent[] => [
  { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'w-1', at: from } },
  status('joining_call', at(from, { s: 1 })),
  status('in_waiting_room', at(from, { s: 2 })),
  status('in_call_recording', at(from, { s: 4 })),
  status('recording_paused', at(from, { s: 20 })),
  { type: 'BotLeaveRequested', data: { bot_id: BOT, at: at(from, { s: 40 }) } },
  { type: 'ArtifactStored', data: { bot_id: BOT, artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: 100, at: at(from, { s: 45 }) } },
  completed(at(from, { s: 46 })),
  { type: 'TranscriptionRequested', data: { bot_id: BOT, request_id: 'initial', ...transcription, retranscribe: false, at: at(from, { s: 46 }) } },
];

const given = (events: readonly BotEvent[]) => ({ then: (expected: BotFacts | null) => assert.deepStrictEqual(botFactsOf(events), expected) });

describe('a bot’s facts, derived from its events', () => {
  it('given no events (or none that makes a bot), then no bot', () => {
    given([]).then(null);
    given([status('joining_call', T0)]).then(null);
  });

  describe('a bot created to join at once (its stream starts with BotCreated)', () => {
    const justCreated: BotFacts = {
      bot_id: BOT, team_id: TEAM, created_by: fullKey, ...definition, config: runConfig(requested), run_config: runConfig(requested),
      times: { created_at: T0, join_at: null, queued_at: T0, joined_at: null, ended_at: null }, status: 'queued', outcome: null,
    };

    it('given BotCreated, then it is queued from its creation, with the config it runs with', () => {
      given([created]).then(justCreated);
      assert.equal(wasQueued(botFactsOf([created])), true);
    });

    it('given it ran and completed, then the status is completed, joined when admitted (not in the waiting room), and the outcome holds the end reason and usage', () => {
      given([created, ...runAndComplete(T0)]).then({
        ...justCreated,
        status: 'completed',
        times: { ...justCreated.times, joined_at: at(T0, { s: 4 }), ended_at: at(T0, { s: 46 }) },
        outcome: { status: 'completed', end_reason: 'API_REQUEST', usage, at: at(T0, { s: 46 }) },
      });
    });

    it('given it failed, then the outcome holds the error code and message', () => {
      given([created, status('joining_call', at(T0, { s: 1 })), failed('BOT_NOT_ACCEPTED', at(T0, { s: 9 }))]).then({
        ...justCreated,
        status: 'failed',
        times: { ...justCreated.times, ended_at: at(T0, { s: 9 }) },
        outcome: { status: 'failed', error_code: 'BOT_NOT_ACCEPTED', error_message: 'ended: BOT_NOT_ACCEPTED', usage: { recorded_seconds: 0, waiting_room_seconds: 0 }, at: at(T0, { s: 9 }) },
      });
    });
  });

  describe('a scheduled bot (its stream starts with BotScheduled)', () => {
    const waiting: BotFacts = {
      bot_id: BOT, team_id: TEAM, created_by: fullKey, ...definition, run_config: null,
      times: { created_at: T0, join_at: JOIN_AT, queued_at: null, joined_at: null, ended_at: null }, status: 'scheduled', outcome: null,
    };
    const renamed: BotDefinition = { ...definition, bot_name: 'Renamed', config: { ...requested, entry_message: 'Hello' } };

    it('given BotScheduled, then it is scheduled: its team, creating key, definition and time are known; nothing runs yet', () => {
      given([scheduled()]).then(waiting);
      assert.equal(wasQueued(botFactsOf([scheduled()])), false);
    });

    it('given a change before its time, then the new definition and time', () => {
      given([scheduled(), scheduleChanged(renamed)]).then({ ...waiting, ...renamed, times: { ...waiting.times, join_at: MOVED_JOIN_AT } });
    });

    it('given a change by another key, then that key defines the bot (its deliveries carry it; a change stored before issue 18 names none)', () => {
      const sendingKey = { key_id: 'key-sending', api_key: { sealed: 'sealed-sending' } };
      assert.deepEqual(botFactsOf([scheduled(), scheduleChanged(renamed, sendingKey)])?.created_by, sendingKey);
      assert.equal(botFactsOf([scheduled(), scheduleChanged(renamed, null)])?.created_by, null);
    });

    it('given it was queued at its time, then it is queued with the (changed) definition and the team’s settings, and keeps its creation time and join_at', () => {
      given([scheduled(), scheduleChanged(renamed), queued(renamed)]).then({
        ...waiting, ...renamed, config: runConfig(renamed.config), run_config: runConfig(renamed.config), status: 'queued',
        times: { ...waiting.times, join_at: MOVED_JOIN_AT, queued_at: QUEUED_AT },
      });
      assert.equal(wasQueued(botFactsOf([scheduled(), queued(definition)])), true);
    });

    it('given it was queued, ran and completed with transcription, then the same facts as a bot created at once (the defect of issue 18: its first event is not BotCreated)', () => {
      const facts = botFactsOf([scheduled(), queued(definition), ...runAndComplete(QUEUED_AT)]);
      assert.deepStrictEqual(facts, {
        ...waiting, config: runConfig(requested), run_config: runConfig(requested), status: 'completed',
        times: { created_at: T0, join_at: JOIN_AT, queued_at: QUEUED_AT, joined_at: at(QUEUED_AT, { s: 4 }), ended_at: at(QUEUED_AT, { s: 46 }) },
        outcome: { status: 'completed', end_reason: 'API_REQUEST', usage, at: at(QUEUED_AT, { s: 46 }) },
      });
      assert.deepEqual(facts?.run_config?.transcription, transcription, 'what its transcription runs with');
    });

    for (const [code, status] of [['EXITING_MEETING_BEFORE_RECORD', 'cancelled'], ['INSUFFICIENT_TOKENS', 'failed'], ['SCHEDULED_TIME_MISSED', 'failed']] as const) {
      it(`given it ended before its time (${code}), then it is ${status}, without ever being queued: no config to run with, nothing reserved`, () => {
        const facts = botFactsOf([scheduled(), failed(code, at(T0, { m: 30 }))]);
        assert.equal(facts?.status, status);
        assert.equal(facts?.outcome?.status, status);
        assert.equal(facts?.run_config, null);
        assert.equal(wasQueued(facts), false);
        assert.deepEqual(facts?.outcome && 'error_code' in facts.outcome && facts.outcome.error_code, code);
        assert.equal(facts?.times.ended_at, at(T0, { m: 30 }));
      });
    }
  });

  describe('a calendar bot (a scheduled bot that follows its event)', () => {
    const calendarKey = { key_id: 'key-that-connected-the-calendar', api_key: { sealed: 'sealed-calendar' } };
    const fromEvent: BotDefinition = { ...definition, extra: { calendar_event: 'evt-1' } };
    const movedToAnotherMeeting: BotDefinition = { ...fromEvent, meeting_url: 'https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0', platform: 'tm' };

    it('given it was scheduled from its event, then the key that connected the calendar created it, and it waits for the event’s time', () => {
      const facts = botFactsOf([scheduled(fromEvent, calendarKey)]);
      assert.deepEqual([facts?.status, facts?.created_by, facts?.extra, facts?.times.join_at], ['scheduled', calendarKey, { calendar_event: 'evt-1' }, JOIN_AT]);
    });

    it('given its event moved to another meeting and time, was queued, ran and completed, then it runs on the new meeting and its outcome is known', () => {
      const facts = botFactsOf([scheduled(fromEvent, calendarKey), scheduleChanged(movedToAnotherMeeting, calendarKey), queued(movedToAnotherMeeting, calendarKey), ...runAndComplete(QUEUED_AT)]);
      assert.deepEqual([facts?.platform, facts?.meeting_url], ['tm', movedToAnotherMeeting.meeting_url]);
      assert.deepEqual(facts?.run_config, runConfig(movedToAnotherMeeting.config));
      assert.deepEqual([facts?.team_id, facts?.created_by, facts?.times.join_at, facts?.times.queued_at], [TEAM, calendarKey, MOVED_JOIN_AT, QUEUED_AT]);
      assert.deepEqual(facts?.outcome, { status: 'completed', end_reason: 'API_REQUEST', usage, at: at(QUEUED_AT, { s: 46 }) });
    });

    it('given its event was cancelled before its time, then it is cancelled, never queued', () => {
      const facts = botFactsOf([scheduled(fromEvent, calendarKey), failed('EXITING_MEETING_BEFORE_RECORD', at(T0, { m: 5 }))]);
      assert.deepEqual([facts?.status, facts?.run_config, facts?.team_id], ['cancelled', null, TEAM]);
    });

    it('given it was queued and then left before recording, then it failed (EXITING_MEETING_BEFORE_RECORD): only a bot not yet started is cancelled', () => {
      const facts = botFactsOf([scheduled(fromEvent, calendarKey), queued(fromEvent, calendarKey), failed('EXITING_MEETING_BEFORE_RECORD', at(QUEUED_AT, { s: 2 }))]);
      assert.equal(facts?.status, 'failed');
    });
  });
});
