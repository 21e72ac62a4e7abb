import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import type { BotEvent } from '../../src/domain/bot/bot-events';
import { botWebhookFactsOf, v2BotMessages } from '../../src/domain/webhooks/bot-webhook-messages';
import { at } from './given-when-then';

const T0 = '2026-11-23T09:00:00.000Z';
const BOT = 'bot-1';
const usage = { recorded_seconds: 61.5, waiting_room_seconds: 3 };
const history: BotEvent[] = [
  { type: 'BotCreated', data: { bot_id: BOT, team_id: 'team-1', meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'B', extra: { deal: 7 }, config: defaultBotConfig(), created_by: null, created_at: T0 } },
  { type: 'StatusChanged', data: { bot_id: BOT, status: 'joining_call', at: at(T0, { s: 1 }) } },
  { type: 'StatusChanged', data: { bot_id: BOT, status: 'in_call_recording', at: at(T0, { s: 5 }) } },
  { type: 'ArtifactStored', data: { bot_id: BOT, artifact_type: 'audio_chunk', key: 'audio_chunks/000001.webm', content_type: 'audio/webm', size_bytes: 10, at: at(T0, { s: 15 }) } },
  { type: 'ArtifactStored', data: { bot_id: BOT, artifact_type: 'recording', key: 'recording.mp4', content_type: 'video/mp4', size_bytes: 1000, at: at(T0, { s: 70 }) } },
  { type: 'ParticipantsReported', data: { bot_id: BOT, participants: ['Alice', 'Bob'], speakers: ['Alice'], at: at(T0, { s: 71 }) } },
];
const messagesFor = (event: BotEvent) => v2BotMessages(botWebhookFactsOf([...history, event])!, event);

describe('v2 webhook messages of a bot (DESIGN.md payloads, with extra everywhere)', () => {
  it('a status change: bot.status_change with the code and its time; in_call_recording also has start_time', () => {
    const [joining] = v2BotMessages(botWebhookFactsOf(history)!, history[1]!);
    assert.deepEqual(joining, {
      event_type: 'bot.status_change',
      payload: { event: 'bot.status_change', data: { bot_id: BOT, extra: { deal: 7 }, status: { code: 'joining_call', created_at: at(T0, { s: 1 }) } } },
    });
    const [recording] = v2BotMessages(botWebhookFactsOf(history)!, history[2]!);
    assert.deepEqual((recording!.payload.data as { status: unknown }).status, { code: 'in_call_recording', created_at: at(T0, { s: 5 }), start_time: at(T0, { s: 5 }) });
  });

  it('completed: end reason, duration, joined and exited times, participants, speakers, and the recording as a link placeholder (chunks left out)', () => {
    const end: BotEvent = { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'NO_SPEAKER', usage, at: at(T0, { s: 72 }) } };
    const [message] = messagesFor(end);
    assert.equal(message!.event_type, 'bot.completed');
    assert.deepEqual(message!.payload, {
      event: 'bot.completed',
      data: {
        bot_id: BOT,
        extra: { deal: 7 },
        status: { code: 'completed', created_at: at(T0, { s: 72 }) },
        error_code: 'NO_SPEAKER',
        duration_seconds: 61.5,
        joined_at: at(T0, { s: 5 }),
        exited_at: at(T0, { s: 72 }),
        participants: ['Alice', 'Bob'],
        speakers: ['Alice'],
        artifacts: [{ artifact_type: 'recording', url: { $artifact_link: 'recording.mp4', part: 'url' }, url_expires_at: { $artifact_link: 'recording.mp4', part: 'expires_at' }, size_bytes: 1000 }],
      },
    });
  });

  it('failed: the error code and message', () => {
    const end: BotEvent = { type: 'BotFailed', data: { bot_id: BOT, error_code: 'BOT_NOT_ACCEPTED', error_message: 'Denied', usage, at: at(T0, { s: 72 }) } };
    assert.deepEqual(messagesFor(end), [
      {
        event_type: 'bot.failed',
        payload: { event: 'bot.failed', data: { bot_id: BOT, extra: { deal: 7 }, status: { code: 'failed', created_at: at(T0, { s: 72 }) }, error_code: 'BOT_NOT_ACCEPTED', error_message: 'Denied' } },
      },
    ]);
  });

  it('a scheduled bot refused or cancelled before its time: bot.failed with the extra it had then, for the key that changed it', () => {
    const changedBy = { key_id: 'key-2', api_key: { sealed: 'sealed-key-2' } };
    const schedule: BotEvent[] = [
      { type: 'BotScheduled', data: { bot_id: BOT, team_id: 'team-1', meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'B', extra: { deal: 7 }, config: defaultBotConfig(), created_by: null, join_at: at(T0, { h: 1 }), at: T0 } },
      { type: 'BotScheduleChanged', data: { bot_id: BOT, meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'B', extra: { deal: 8 }, config: defaultBotConfig(), created_by: changedBy, join_at: at(T0, { h: 2 }), at: at(T0, { m: 1 }) } },
    ];
    const refused: BotEvent = { type: 'BotFailed', data: { bot_id: BOT, error_code: 'INSUFFICIENT_TOKENS', error_message: 'No tokens', usage: { recorded_seconds: 0, waiting_room_seconds: 0 }, at: at(T0, { h: 2 }) } };
    const facts = botWebhookFactsOf([...schedule, refused]);
    assert.equal(facts?.team_id, 'team-1');
    assert.deepEqual(facts?.created_by, changedBy, 'its webhooks carry the key that last defined it');
    assert.deepEqual(v2BotMessages(facts!, refused), [
      {
        event_type: 'bot.failed',
        payload: { event: 'bot.failed', data: { bot_id: BOT, extra: { deal: 8 }, status: { code: 'failed', created_at: at(T0, { h: 2 }) }, error_code: 'INSUFFICIENT_TOKENS', error_message: 'No tokens' } },
      },
    ]);
    const cancelled: BotEvent = { type: 'BotFailed', data: { ...refused.data, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'The scheduled bot was cancelled before its time.' } } as BotEvent;
    const [final] = v2BotMessages(botWebhookFactsOf([...schedule, cancelled])!, cancelled);
    assert.deepEqual((final!.payload.data as { status: unknown }).status, { code: 'cancelled', created_at: at(T0, { h: 2 }) }, 'cancelled before its time: the final event says so');
  });

  it('other bot events send nothing', () => {
    assert.deepEqual(messagesFor({ type: 'BotLeaveRequested', data: { bot_id: BOT, at: T0 } }), []);
    assert.deepEqual(messagesFor({ type: 'CallEnded', data: { bot_id: BOT, at: T0 } }), []);
  });
});
