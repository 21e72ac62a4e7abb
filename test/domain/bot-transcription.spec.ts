/** The bot's transcription rules (bot-decider.ts), given/when/then. */
import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botDecider, type BotCommand } from '../../src/domain/bot/bot-decider';
import { BotEvent, INITIAL_TRANSCRIPTION } from '../../src/domain/bot/bot-events';
import { providerJobOf } from '../../src/domain/transcription/transcription-inputs';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(botDecider, BotEvent);

const BOT = 'b0e5a4a2-0000-4000-8000-000000000002';
const T0 = '2025-03-03T09:00:00.000Z';
const END = at(T0, { h: 1 });
const LATER = at(T0, { h: 2 });
const usage = { recorded_seconds: 3000, waiting_room_seconds: 0 };
const key = { sealed: 'v1.sealed-key' };

const created = (transcription: boolean): BotEvent => ({
  type: 'BotCreated',
  data: {
    bot_id: BOT,
    team_id: 'team-1',
    meeting_url: 'https://mt.localhost/abc-defg-hij',
    platform: 'mt',
    bot_name: 'Notetaker',
    extra: null,
    config: { ...defaultBotConfig(), transcription: transcription ? { provider: 'Gladia', api_key: key, custom_params: null } : null },
    created_by: null,
    created_at: T0,
  },
});
const status = (s: 'joining_call' | 'in_call_recording', minute: number): BotEvent => ({ type: 'StatusChanged', data: { bot_id: BOT, status: s, at: at(T0, { m: minute }) } });
const recording: BotEvent = {
  type: 'ArtifactStored',
  data: { bot_id: BOT, artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: 1000, at: END },
};
const completed: BotEvent = { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: END } };
const running = (transcription: boolean): BotEvent[] => [
  created(transcription),
  { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'w', at: T0 } },
  status('joining_call', 1),
  status('in_call_recording', 2),
];
const completedWithRecording = (transcription: boolean) => [...running(transcription), recording, completed];

const request = (request_id: string, retranscribe: boolean): Extract<BotCommand, { type: 'RequestTranscription' }> => ({
  type: 'RequestTranscription', request_id, provider: 'Gladia', api_key: key, custom_params: null, retranscribe, now: LATER,
});
const requested = (request_id: string, retranscribe: boolean): BotEvent => ({
  type: 'TranscriptionRequested',
  data: { bot_id: BOT, request_id, provider: 'Gladia', api_key: key, custom_params: null, retranscribe, at: LATER },
});
const transcriptArtifacts = [
  { artifact_type: 'raw_transcription', key: 'raw_transcription.json', content_type: 'application/json', size_bytes: 10 },
  { artifact_type: 'transcription', key: 'output_transcription.json', content_type: 'application/json', size_bytes: 20 },
];
const complete = (request_id: string): BotCommand => ({ type: 'CompleteTranscription', request_id, provider: 'Gladia', artifacts: transcriptArtifacts, utterances: 4, now: LATER });
const completedTranscription = (request_id: string): BotEvent => ({
  type: 'TranscriptionCompleted',
  data: { bot_id: BOT, request_id, provider: 'Gladia', keys: transcriptArtifacts.map((a) => a.key), utterances: 4, at: LATER },
});
const fail = (request_id: string): BotCommand => ({ type: 'FailTranscription', request_id, provider: 'Gladia', error_message: 'Gladia: 401 Invalid or missing API key', now: LATER });
const failedTranscription = (request_id: string): BotEvent => ({
  type: 'TranscriptionFailed',
  data: { bot_id: BOT, request_id, provider: 'Gladia', error_code: 'TRANSCRIPTION_FAILED', error_message: 'Gladia: 401 Invalid or missing API key', at: LATER },
});

describe('bot transcription rules', () => {
  describe('the first transcription', () => {
    it('given a completed bot that asked for transcription, when it is requested, then it is recorded', () =>
      spec.given(completedWithRecording(true)).when(request(INITIAL_TRANSCRIPTION, false)).then([requested(INITIAL_TRANSCRIPTION, false)]));

    it('given it was requested already (a redelivered BotCompleted), when it is requested again, then nothing', () =>
      spec.given([...completedWithRecording(true), requested(INITIAL_TRANSCRIPTION, false)]).when(request(INITIAL_TRANSCRIPTION, false)).thenNothing());

    it('given a bot that did not ask for transcription, when the first one is requested, then nothing', () =>
      spec.given(completedWithRecording(false)).when(request(INITIAL_TRANSCRIPTION, false)).thenNothing());

    it('given a running bot, when a transcription is requested, then it is refused: there is no recording yet', () =>
      spec.given(running(true)).when(request(INITIAL_TRANSCRIPTION, false)).thenRejects({ code: 'BOT_STATUS', status: 'in_call_recording' }));
  });

  describe("its provider's job", () => {
    const underWay = [...completedWithRecording(true), requested(INITIAL_TRANSCRIPTION, false)];
    const recordJob = (request_id: string, job_id: string): BotCommand => ({ type: 'RecordTranscriptionJob', request_id, provider: 'Gladia', job_id, now: LATER });
    const jobRecorded = (request_id: string, job_id: string): BotEvent => ({ type: 'TranscriptionJobSubmitted', data: { bot_id: BOT, request_id, provider: 'Gladia', job_id, at: LATER } });

    it('given it runs, when the provider accepted its job, then the job is recorded', () =>
      spec.given(underWay).when(recordJob(INITIAL_TRANSCRIPTION, 'job-1')).then([jobRecorded(INITIAL_TRANSCRIPTION, 'job-1')]));

    it('given its job was recorded, when the same job is recorded again (a retried append), then nothing', () =>
      spec.given([...underWay, jobRecorded(INITIAL_TRANSCRIPTION, 'job-1')]).when(recordJob(INITIAL_TRANSCRIPTION, 'job-1')).thenNothing());

    it('given its job was recorded, when another job is recorded (a second owner), then it is refused: the first is the one waited for', () =>
      spec
        .given([...underWay, jobRecorded(INITIAL_TRANSCRIPTION, 'job-1')])
        .when(recordJob(INITIAL_TRANSCRIPTION, 'job-2'))
        .thenRejects({ code: 'INVALID_TRANSITION', message: `The transcription ${INITIAL_TRANSCRIPTION} already has job job-1 at the provider` }));

    it('given it has ended, or another request runs, when a job is recorded for it, then nothing', () => {
      spec.given([...underWay, failedTranscription(INITIAL_TRANSCRIPTION)]).when(recordJob(INITIAL_TRANSCRIPTION, 'job-1')).thenNothing();
      spec.given(underWay).when(recordJob('r-9', 'job-1')).thenNothing();
    });

    it('given the first ended with a job, when a re-transcribe records its own, then it is recorded: each request has its job', () =>
      spec
        .given([...underWay, jobRecorded(INITIAL_TRANSCRIPTION, 'job-1'), failedTranscription(INITIAL_TRANSCRIPTION), requested('r-1', true)])
        .when(recordJob('r-1', 'job-2'))
        .then([jobRecorded('r-1', 'job-2')]));

    it("a request's job is what transcribing it waits for: none before it is recorded, that one after, none for another request", () => {
      assert.equal(providerJobOf(underWay, INITIAL_TRANSCRIPTION), null);
      const withJob = [...underWay, jobRecorded(INITIAL_TRANSCRIPTION, 'job-1')];
      assert.equal(providerJobOf(withJob, INITIAL_TRANSCRIPTION), 'job-1');
      assert.equal(providerJobOf(withJob, 'r-1'), null);
      assert.equal(providerJobOf([...withJob, failedTranscription(INITIAL_TRANSCRIPTION), requested('r-1', true), jobRecorded('r-1', 'job-2')], 'r-1'), 'job-2');
    });
  });

  describe('its end', () => {
    const underWay = [...completedWithRecording(true), requested(INITIAL_TRANSCRIPTION, false)];

    it('given it runs, when it completes, then the transcript artifacts are stored and the transcription completed', () =>
      spec
        .given(underWay)
        .when(complete(INITIAL_TRANSCRIPTION))
        .then([
          ...transcriptArtifacts.map((a): BotEvent => ({ type: 'ArtifactStored', data: { bot_id: BOT, ...a, at: LATER } })),
          completedTranscription(INITIAL_TRANSCRIPTION),
        ]));

    it('given it runs, when it fails, then it ends TRANSCRIPTION_FAILED', () =>
      spec.given(underWay).when(fail(INITIAL_TRANSCRIPTION)).then([failedTranscription(INITIAL_TRANSCRIPTION)]));

    it('given it has ended, when it completes again (a restart ran it twice), then nothing', () => {
      spec.given([...underWay, failedTranscription(INITIAL_TRANSCRIPTION)]).when(complete(INITIAL_TRANSCRIPTION)).thenNothing();
      spec.given([...underWay, completedTranscription(INITIAL_TRANSCRIPTION)]).when(fail(INITIAL_TRANSCRIPTION)).thenNothing();
    });
  });

  describe('re-transcribe', () => {
    const afterFailure = [...completedWithRecording(true), requested(INITIAL_TRANSCRIPTION, false), failedTranscription(INITIAL_TRANSCRIPTION)];

    it('given the first transcription failed, when a re-transcribe is asked, then it is recorded', () =>
      spec.given(afterFailure).when(request('r-1', true)).then([requested('r-1', true)]));

    it('given a bot that never asked for transcription but has a recording, when a re-transcribe is asked, then it is recorded', () =>
      spec.given(completedWithRecording(false)).when(request('r-1', true)).then([requested('r-1', true)]));

    it('given the same request was recorded, when it is asked again, then nothing', () =>
      spec.given([...afterFailure, requested('r-1', true)]).when(request('r-1', true)).thenNothing());

    it('given a transcription runs, when another is asked, then it is refused', () =>
      spec.given([...afterFailure, requested('r-1', true)]).when(request('r-2', true)).thenRejects({ code: 'BOT_STATUS', message: 'A transcription of this bot is already running' }));

    it('given the first transcription is due but not yet asked for, when a re-transcribe is asked, then it is refused (it would run twice)', () =>
      spec.given(completedWithRecording(true)).when(request('r-1', true)).thenRejects({ code: 'BOT_STATUS', message: 'A transcription of this bot is already running' }));

    it('given a completed bot without a recording, when a re-transcribe is asked, then it is refused', () =>
      spec.given([...running(false), completed]).when(request('r-1', true)).thenRejects({ code: 'BOT_STATUS' }));

    it('given the recording expired, when a re-transcribe is asked, then it is refused', () =>
      spec
        .given([...completedWithRecording(false), { type: 'ArtifactsExpired', data: { bot_id: BOT, keys: ['recording.mp3'], at: LATER } }])
        .when(request('r-1', true))
        .thenRejects({ code: 'BOT_STATUS', message: 'The bot has no recording to transcribe (none was made, or it has expired)' }));

    it('given a re-transcribe runs, when it completes, then the same keys are stored anew', () =>
      spec
        .given([...afterFailure, requested('r-1', true)])
        .when(complete('r-1'))
        .then([...transcriptArtifacts.map((a): BotEvent => ({ type: 'ArtifactStored', data: { bot_id: BOT, ...a, at: LATER } })), completedTranscription('r-1')]));
  });
});
