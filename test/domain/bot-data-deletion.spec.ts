import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botDecider, type BotCommand } from '../../src/domain/bot/bot-decider';
import { BotEvent, INITIAL_TRANSCRIPTION } from '../../src/domain/bot/bot-events';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(botDecider, BotEvent);

const BOT = 'b0e5a4a2-0000-4000-8000-00000000da7a';
const T0 = '2026-03-03T09:00:00.000Z';
const NOW = at(T0, { h: 2 });
const usage = { recorded_seconds: 60, waiting_room_seconds: 0 };

const created = (transcription = false): BotEvent => ({
  type: 'BotCreated',
  data: {
    bot_id: BOT, team_id: 'team-1', meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'Notetaker', extra: null,
    config: { ...defaultBotConfig(), transcription: transcription ? { provider: 'Default', api_key: null, custom_params: null } : null },
    created_by: null, created_at: T0,
  },
});
const scheduled: BotEvent = {
  type: 'BotScheduled',
  data: {
    bot_id: BOT, team_id: 'team-1', meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'Later', extra: null,
    config: defaultBotConfig(), created_by: null, join_at: at(T0, { h: 5 }), at: T0,
  },
};
const recording: BotEvent = { type: 'ArtifactStored', data: { bot_id: BOT, artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: 10, at: at(T0, { m: 30 }) } };
const completed: BotEvent = { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: at(T0, { h: 1 }) } };
const failed: BotEvent = { type: 'BotFailed', data: { bot_id: BOT, error_code: 'BOT_NOT_ACCEPTED', error_message: 'refused', usage, at: at(T0, { h: 1 }) } };
const running = (status: 'joining_call' | 'in_call_recording'): BotEvent => ({ type: 'StatusChanged', data: { bot_id: BOT, status, at: at(T0, { m: 1 }) } });
const transcriptionAsked: BotEvent = {
  type: 'TranscriptionRequested',
  data: { bot_id: BOT, request_id: INITIAL_TRANSCRIPTION, provider: 'Default', api_key: null, custom_params: null, retranscribe: false, at: at(T0, { h: 1 }) },
};
const transcriptionFailed: BotEvent = {
  type: 'TranscriptionFailed',
  data: { bot_id: BOT, request_id: INITIAL_TRANSCRIPTION, provider: 'Default', error_code: 'TRANSCRIPTION_FAILED', error_message: 'no speech', at: at(T0, { h: 1, m: 1 }) },
};

const deleteData: BotCommand = { type: 'DeleteBotData', key_id: 'key-1', now: NOW };
const deleted: BotEvent = { type: 'BotDataDeleted', data: { bot_id: BOT, key_id: 'key-1', at: NOW } };
const erase = (keys: readonly string[]): BotCommand => ({ type: 'RecordArtifactsErased', keys, now: at(NOW, { m: 1 }) });
const erased = (keys: string[]): BotEvent => ({ type: 'BotArtifactsErased', data: { bot_id: BOT, keys, at: at(NOW, { m: 1 }) } });

describe("bot decider: deleting a bot's data", () => {
  describe('allowed only once the bot has ended', () => {
    it('a completed bot: its data is deleted, by the key that asked', () => spec.given([created(), recording, completed]).when(deleteData).then([deleted]));
    it('a failed bot too', () => spec.given([created(), failed]).when(deleteData).then([deleted]));
    it('a queued bot is refused (409): it has not ended', () =>
      spec.given([created()]).when(deleteData).thenRejects({ code: 'BOT_STATUS', status: 'queued' }));
    it('a bot in the call is refused: make it leave first', () =>
      spec.given([created(), running('joining_call'), running('in_call_recording')]).when(deleteData).thenRejects({ code: 'BOT_STATUS', status: 'in_call_recording' }));
    it('a scheduled bot waiting for its time is refused (cancel it first)', () =>
      spec.given([scheduled]).when(deleteData).thenRejects({ code: 'BOT_STATUS', status: 'scheduled' }));
    it('an unknown bot is not found', () => spec.given([]).when(deleteData).thenRejects({ code: 'BOT_NOT_FOUND' }));
  });

  describe('not while a transcription would store a transcript after it', () => {
    it('a completed bot whose transcription is due is refused', () =>
      spec.given([created(true), recording, completed]).when(deleteData).thenRejects({ code: 'BOT_STATUS', status: 'completed' }));
    it('a running transcription is refused', () =>
      spec.given([created(true), recording, completed, transcriptionAsked]).when(deleteData).thenRejects({ code: 'BOT_STATUS' }));
    it('once the transcription ended, the data is deleted', () =>
      spec.given([created(true), recording, completed, transcriptionAsked, transcriptionFailed]).when(deleteData).then([deleted]));
  });

  describe('idempotent', () => {
    it('asked again, nothing more is recorded', () => spec.given([created(), completed, deleted]).when(deleteData).thenNothing());
    it('asked again after the erasure, still nothing', () => spec.given([created(), completed, deleted, erased([])]).when(deleteData).thenNothing());
  });

  describe('the erasure of its artifacts', () => {
    it('is recorded once every store is clean, with the artifacts it knew of', () =>
      spec.given([created(), recording, completed, deleted]).when(erase(['recording.mp3', 'recording.mp3'])).then([erased(['recording.mp3'])]));
    it('is recorded once', () => spec.given([created(), completed, deleted, erased([])]).when(erase([])).thenNothing());
    it('is nothing for a bot whose data was not deleted', () => spec.given([created(), completed]).when(erase([])).thenNothing());
  });

  describe('afterwards nothing of the bot is kept or transcribed again; what happened still is', () => {
    const after = [created(true), recording, completed, transcriptionAsked, transcriptionFailed, deleted];
    it('a late artifact report records nothing (its object is erased with the rest)', () =>
      spec.given(after).when({ type: 'RecordArtifact', artifact_type: 'screenshot', key: 'screenshots/9.png', content_type: 'image/png', size_bytes: 1, now: NOW }).thenNothing());
    it('a held copy stored in its bucket at last records nothing', () =>
      spec.given(after).when({ type: 'RecordArtifactSpilled', artifact_type: 'bot_log', key: 'bot.log', content_type: 'text/plain', size_bytes: 1, reason: 'x', now: NOW }).thenNothing());
    it('retention has nothing left to expire', () => spec.given(after).when({ type: 'ExpireArtifacts', keys: ['recording.mp3'], now: NOW }).thenNothing());
    it('a re-transcription is refused: there is no recording left', () =>
      spec
        .given(after)
        .when({ type: 'RequestTranscription', request_id: 'again', provider: 'Default', api_key: null, custom_params: null, retranscribe: true, now: NOW })
        .thenRejects({ code: 'BOT_STATUS', message: "The bot's data was deleted: there is nothing left to transcribe" }));
    it('a read of what is left (meeting_data) is still recorded: the audit of who read what stays', () =>
      spec.given(after).when({ type: 'RecordDataAccess', key_id: 'key-2', reads: 1, now: NOW }).then([{ type: 'BotDataAccessed', data: { bot_id: BOT, key_id: 'key-2', reads: 1, at: NOW } }]));
  });
});
