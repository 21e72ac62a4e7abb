import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import type { BotEvent } from '../../src/domain/bot/bot-events';
import { botMessages, botWebhookFactsOf, messageIdOf } from '../../src/domain/webhooks/bot-webhook-messages';
import { artifactLink } from '../../src/domain/webhooks/artifact-link';
import { endpointWants } from '../../src/domain/webhooks/webhook-event-types';
import { at } from './given-when-then';

const T0 = '2026-11-23T09:00:00.000Z';
const BOT = 'bot-1';
const noUsage = { recorded_seconds: 0, waiting_room_seconds: 0 };
const created: BotEvent = {
  type: 'BotCreated',
  data: {
    bot_id: BOT, team_id: 'team-1', meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'B', extra: { deal: 7 },
    config: { ...defaultBotConfig(), api: 'legacy', webhook_url: 'https://hooks.example.com/x' }, created_by: null, created_at: T0,
  },
};
const status = (s: 'joining_call' | 'in_waiting_room' | 'in_call_not_recording' | 'in_call_recording' | 'recording_paused' | 'recording_resumed', sec: number): BotEvent =>
  ({ type: 'StatusChanged', data: { bot_id: BOT, status: s, at: at(T0, { s: sec }) } });
const callEnded: BotEvent = { type: 'CallEnded', data: { bot_id: BOT, at: at(T0, { s: 90 }) } };
const recording: BotEvent = { type: 'ArtifactStored', data: { bot_id: BOT, artifact_type: 'recording', key: 'recording.mp4', content_type: 'video/mp4', size_bytes: 1000, at: at(T0, { s: 91 }) } };
const participants: BotEvent = { type: 'ParticipantsReported', data: { bot_id: BOT, participants: ['Alice', 'Bob'], speakers: ['Alice'], at: at(T0, { s: 92 }) } };
const ran: BotEvent[] = [created, status('joining_call', 1), status('in_call_recording', 5), callEnded, recording, participants];

const completed = (end_reason: string): BotEvent => ({ type: 'BotCompleted', data: { bot_id: BOT, end_reason, usage: { recorded_seconds: 85, waiting_room_seconds: 0 }, at: at(T0, { s: 93 }) } });
const failed = (error_code: string, error_message = 'it went wrong'): BotEvent => ({ type: 'BotFailed', data: { bot_id: BOT, error_code, error_message, usage: noUsage, at: at(T0, { s: 30 }) } });

/** The messages of the last event, after the ones before it. */
const messagesOf = (history: BotEvent[]) => botMessages(botWebhookFactsOf(history)!, history[history.length - 1]!);
const codes = (history: BotEvent[]) => messagesOf(history).map((m) => (m.event_type === 'bot.status_change' ? (m.payload.data as { status: { code: string } }).status.code : m.event_type));

describe('legacy webhook messages of a bot created through the legacy API (the spec\'s bot.status_change, complete, failed)', () => {
  it('a live status: bot.status_change with the code and its time, no extra; in_call_recording has start_time', () => {
    assert.deepEqual(messagesOf([created, status('joining_call', 1)]), [
      { event_type: 'bot.status_change', payload: { event: 'bot.status_change', data: { bot_id: BOT, status: { code: 'joining_call', created_at: at(T0, { s: 1 }) } } } },
    ]);
    const [recordingStarted] = messagesOf([created, status('joining_call', 1), status('in_call_recording', 5)]);
    assert.deepEqual((recordingStarted!.payload.data as { status: unknown }).status, { code: 'in_call_recording', created_at: at(T0, { s: 5 }), start_time: at(T0, { s: 5 }) });
    for (const s of ['in_waiting_room', 'in_call_not_recording', 'recording_paused', 'recording_resumed'] as const) {
      assert.deepEqual(codes([created, status(s, 3)]), [s]);
    }
  });

  it('call_ended, when the bot reports leaving the call', () => {
    assert.deepEqual(messagesOf(ran.slice(0, 4)), [
      { event_type: 'bot.status_change', payload: { event: 'bot.status_change', data: { bot_id: BOT, status: { code: 'call_ended', created_at: at(T0, { s: 90 }) } } } },
    ]);
  });

  it('complete after call_ended: the recording as a link minted when sent, and the speakers', () => {
    const messages = messagesOf([...ran, completed('API_REQUEST')]);
    assert.deepEqual(messages, [
      { event_type: 'complete', payload: { event: 'complete', data: { bot_id: BOT, mp4: artifactLink('recording.mp4', 'url'), speakers: ['Alice'], end_reason: 'api_request' } } },
    ]);
  });

  it('complete says why the recording ended, in the spec\'s legacy recording end reasons', () => {
    const endReason = (code: string) => (messagesOf([...ran, completed(code)]).at(-1)!.payload.data as { end_reason: string }).end_reason;
    assert.deepEqual(['BOT_REMOVED', 'NO_ATTENDEES', 'NO_SPEAKER', 'RECORDING_TIMEOUT', 'API_REQUEST'].map(endReason), ['bot_removed', 'no_attendees', 'no_speaker', 'recording_timeout', 'api_request']);
  });

  it('a removal through the API before the bot joined: call_ended, then failed BotRemoved', () => {
    const messages = messagesOf([created, failed('EXITING_MEETING_BEFORE_RECORD', 'The bot was asked to leave before it joined the meeting.')]);
    assert.deepEqual(messages, [
      { event_type: 'bot.status_change', id_suffix: 'status', payload: { event: 'bot.status_change', data: { bot_id: BOT, status: { code: 'call_ended', created_at: at(T0, { s: 30 }) } } } },
      { event_type: 'failed', payload: { event: 'failed', data: { bot_id: BOT, error: 'BotRemoved' } } },
    ]);
  });

  it('a legacy calendar bot cancelled before its time (status cancelled in v2): what a removal through the API sends, call_ended then failed BotRemoved', () => {
    const { created_at: _created, ...definition } = created.data as Extract<BotEvent, { type: 'BotCreated' }>['data'];
    const scheduled: BotEvent = { type: 'BotScheduled', data: { ...definition, join_at: at(T0, { h: 1 }), at: T0 } };
    assert.deepEqual(codes([scheduled, failed('EXITING_MEETING_BEFORE_RECORD', 'The scheduled bot was cancelled before its time.')]), ['call_ended', 'failed']);
    assert.deepEqual(messagesOf([scheduled, failed('EXITING_MEETING_BEFORE_RECORD')])[1]!.payload.data, { bot_id: BOT, error: 'BotRemoved' });
  });

  it('a plain end whose call_ended report was lost still sends call_ended before the final data', () => {
    assert.deepEqual(codes([created, status('joining_call', 1), status('in_call_recording', 5), completed('NO_ATTENDEES')]), ['call_ended', 'complete']);
  });

  it('why a bot ended, before its final event: bot_rejected, bot_removed, waiting_room_timeout, invalid_meeting_url', () => {
    assert.deepEqual(codes([created, status('joining_call', 1), failed('BOT_NOT_ACCEPTED')]), ['bot_rejected', 'failed']);
    assert.deepEqual(codes([...ran, completed('BOT_REMOVED')]), ['bot_removed', 'complete']);
    assert.deepEqual(codes([created, status('joining_call', 1), status('in_call_not_recording', 2), callEnded, failed('BOT_REMOVED_TOO_EARLY')]), ['bot_removed', 'failed']);
    assert.deepEqual(codes([created, status('joining_call', 1), failed('TIMEOUT_WAITING_TO_START')]), ['waiting_room_timeout', 'failed']);
    assert.deepEqual(codes([created, failed('WAITING_FOR_HOST_TIMEOUT')]), ['waiting_room_timeout', 'failed']);
    assert.deepEqual(codes([created, failed('INVALID_MEETING_URL')]), ['invalid_meeting_url', 'failed']);
    assert.equal((messagesOf([created, failed('INVALID_MEETING_URL')])[1]!.payload.data as { error: string }).error, 'InvalidMeetingUrl');
  });

  it('any other failure: meeting_error with error_message and error_type, then failed with the camel-case string', () => {
    const messages = messagesOf([created, status('joining_call', 1), failed('CANNOT_JOIN_MEETING', 'The meeting does not exist')]);
    assert.deepEqual(messages, [
      {
        event_type: 'bot.status_change',
        id_suffix: 'status',
        payload: {
          event: 'bot.status_change',
          data: { bot_id: BOT, status: { code: 'meeting_error', created_at: at(T0, { s: 30 }), error_message: 'The meeting does not exist', error_type: 'CANNOT_JOIN_MEETING' } },
        },
      },
      { event_type: 'failed', payload: { event: 'failed', data: { bot_id: BOT, error: 'CannotJoinMeeting' } } },
    ]);
    assert.deepEqual((messagesOf([...ran, failed('FORCE_KILLED')])[1]!.payload.data as { error: string }).error, 'InternalError');
  });

  it('complete without a recording has mp4 null; queued and the internal events send nothing', () => {
    const [, complete] = messagesOf([created, status('joining_call', 1), status('in_call_not_recording', 2), completed('NO_SPEAKER')]);
    assert.deepEqual(complete!.payload.data, { bot_id: BOT, mp4: null, speakers: [], end_reason: 'no_speaker' });
    assert.deepEqual(messagesOf([created]), []);
    assert.deepEqual(messagesOf([created, { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'w', at: T0 } }]), []);
    assert.deepEqual(messagesOf([...ran, { type: 'BotDataAccessed', data: { bot_id: BOT, key_id: 'k', reads: 1, at: T0 } }]), []);
  });

  it('a v2 bot still gets the v2 messages, and never call_ended', () => {
    const v2 = { ...created, data: { ...created.data, config: defaultBotConfig() } } as BotEvent;
    assert.deepEqual(messagesOf([v2, status('joining_call', 1)]).map((m) => m.event_type), ['bot.status_change']);
    assert.deepEqual(messagesOf([v2, callEnded]), []);
    assert.deepEqual(messagesOf([v2, failed('BOT_NOT_ACCEPTED')]).map((m) => m.event_type), ['bot.failed']);
  });

  it('two messages of one event get two ids; the final one keeps the event\'s own', () => {
    const [statusMessage, final] = messagesOf([created, failed('BOT_NOT_ACCEPTED')]);
    const eventId = '0b6b2f1e-0000-5000-8000-000000000001';
    assert.equal(messageIdOf(eventId, final!), 'msg_0b6b2f1e000050008000000000000001');
    assert.equal(messageIdOf(eventId, statusMessage!), 'msg_0b6b2f1e000050008000000000000001_status');
  });

  it('an endpoint subscribed to bot.completed or bot.failed receives the legacy complete or failed', () => {
    assert.equal(endpointWants(['bot.completed'], 'complete'), true);
    assert.equal(endpointWants(['bot.failed'], 'failed'), true);
    assert.equal(endpointWants(['bot.completed'], 'failed'), false);
    assert.equal(endpointWants(['bot.status_change'], 'bot.status_change'), true);
    assert.equal(endpointWants([], 'complete'), true);
  });
});
