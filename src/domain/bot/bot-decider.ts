import * as E from 'fp-ts/Either';
import { decideControl, evolveControl, initialControl } from './bot-control';
import type { Decider } from '../decider';
import { INITIAL_TRANSCRIPTION, type BotEvent, type Usage } from './bot-events';
import { canMoveTo, hasStartedRecording, isInCall, isTerminal, type BotStatus } from './bot-status';
import { afterDataDeletion, decideDataDeletion } from './bot-data-deletion';
import { EXITING_MEETING_BEFORE_RECORD, failedStatus, isNormalEnd, TRANSCRIPTION_FAILED } from './end-codes';
import { joinAtProblem } from './schedule-timing';
import type { BotCommand, BotRejection, Platform } from './bot-commands';
import type { BotState, Schedule } from './bot-state';

export type { BotCommand, BotDefinition, BotRejection, TranscriptArtifact } from './bot-commands';
export type { ArtifactState, BotState, Schedule } from './bot-state';

const initialState = (): BotState => ({ kind: 'absent' });

const noEvents = E.right<BotRejection, readonly BotEvent[]>([]);
const emit = (...events: BotEvent[]) => E.right<BotRejection, readonly BotEvent[]>(events);
const statusRejection = (status: BotStatus, message: string) =>
  E.left<BotRejection, readonly BotEvent[]>({ code: 'BOT_STATUS', message, status });

const noUsage: Usage = { recorded_seconds: 0, waiting_room_seconds: 0 };

type Present = Extract<BotState, { kind: 'present' }>;

const failedBeforeStart = (state: Present, error_code: string, error_message: string, now: string) =>
  emit({ type: 'BotFailed', data: { bot_id: state.bot_id, error_code, error_message, usage: noUsage, at: now } });

const CANCELLED_MESSAGE = 'The scheduled bot was cancelled before its time.';

const notScheduled = (state: Present, what: string) =>
  statusRejection(state.status, `${what} only before the bot starts (status: ${state.status})`);

const invalidJoinAt = (joinAt: string, now: string) => {
  const problem = joinAtProblem(joinAt, now);
  return problem === null ? null : E.left<BotRejection, readonly BotEvent[]>({ code: 'INVALID_JOIN_AT', message: `join_at ${problem}` });
};

/** The scheduled bot's own commands: before its time it is a definition and a time, nothing more. */
const decideScheduled = (
  command: Extract<BotCommand, { type: 'ChangeSchedule' | 'QueueScheduledBot' | 'RefuseScheduledBot' | 'CancelScheduledBot' }>,
  state: Present,
) => {
  const { schedule } = state;
  switch (command.type) {
    case 'ChangeSchedule': {
      if (schedule === null || state.status !== 'scheduled') return notScheduled(state, 'A scheduled bot can be changed');
      if (command.schedule_version !== schedule.version) {
        return E.left<BotRejection, readonly BotEvent[]>({ code: 'SCHEDULE_CHANGED', message: 'The scheduled bot was changed by another request meanwhile' });
      }
      // A time kept as it was is no problem even when it is close (the bot may be being queued: that decides).
      const invalid = command.join_at === schedule.join_at ? null : invalidJoinAt(command.join_at, command.now);
      if (invalid) return invalid;
      const { meeting_url, platform, bot_name, extra, config, created_by, join_at, now } = command;
      return emit({ type: 'BotScheduleChanged', data: { bot_id: state.bot_id, meeting_url, platform, bot_name, extra, config, created_by, join_at, at: now } });
    }
    case 'QueueScheduledBot': {
      // A retry after the bot was queued (a lost answer, a second scheduler) finds it done.
      if (state.queued) return noEvents;
      if (schedule === null || state.status !== 'scheduled') return notScheduled(state, 'A scheduled bot is queued');
      if (command.schedule_version !== schedule.version) {
        return E.left<BotRejection, readonly BotEvent[]>({ code: 'SCHEDULE_CHANGED', message: 'The scheduled bot was changed after its queueing began' });
      }
      const { created_by, config, ...definition } = schedule.definition;
      return emit({
        type: 'BotCreated',
        data: { bot_id: state.bot_id, team_id: state.team_id, ...definition, config: { ...config, ...command.settings }, created_by, created_at: command.now },
      });
    }
    case 'RefuseScheduledBot':
      if (isTerminal(state.status)) return noEvents;
      if (state.status !== 'scheduled') return notScheduled(state, 'Queueing of a scheduled bot can be refused');
      return failedBeforeStart(state, command.error_code, command.error_message, command.now);
    case 'CancelScheduledBot':
      if (state.status !== 'scheduled') return notScheduled(state, 'A scheduled bot can be cancelled');
      return failedBeforeStart(state, EXITING_MEETING_BEFORE_RECORD, CANCELLED_MESSAGE, command.now);
  }
};

/**
 * The spec's pre-recording stop: "EXITING_MEETING_BEFORE_RECORD (left through the API, scheduled bot
 * deletion or calendar bot cancellation, or the meeting ended before admission)". So a normal end code
 * turns into it only when the bot has no recording to show and either it left through the API
 * (API_REQUEST, at any status before recording) or it was never admitted to the call (queued, joining,
 * waiting room: whatever ended it, the meeting ended before admission). A bot admitted to the call that
 * ends for a reason of its own (BOT_REMOVED, NO_ATTENDEES, NO_SPEAKER, RECORDING_TIMEOUT) keeps that code.
 * Recording is known from an in_call_recording status or from the recorded seconds of the end report: a
 * lost status report must not turn a recorded meeting into a free one.
 */
const endEvent = (
  state: Extract<BotState, { kind: 'present' }>,
  command: Extract<BotCommand, { type: 'EndBot' }>,
): BotEvent => {
  const recorded = state.everRecorded || command.usage.recorded_seconds > 0;
  const stoppedBeforeRecording =
    isNormalEnd(command.error_code) && !recorded && (command.error_code === 'API_REQUEST' || !isInCall(state.status));
  if (stoppedBeforeRecording) {
    return {
      type: 'BotFailed',
      data: {
        bot_id: state.bot_id,
        error_code: EXITING_MEETING_BEFORE_RECORD,
        error_message: 'The bot left before it started recording.',
        usage: command.usage,
        at: command.now,
      },
    };
  }
  if (command.outcome === 'completed' && isNormalEnd(command.error_code)) {
    return { type: 'BotCompleted', data: { bot_id: state.bot_id, end_reason: command.error_code, usage: command.usage, at: command.now } };
  }
  return {
    type: 'BotFailed',
    data: { bot_id: state.bot_id, error_code: command.error_code, error_message: command.error_message, usage: command.usage, at: command.now },
  };
};

type PresentBot = Extract<BotState, { kind: 'present' }>;

/** The first transcription is due from the bot's end until it is asked for: it counts as running. */
const runningTranscription = (state: PresentBot): string | null =>
  state.transcriptionRunning ??
  (state.transcriptionWanted && state.status === 'completed' && !state.transcriptionRequests.includes(INITIAL_TRANSCRIPTION) ? INITIAL_TRANSCRIPTION : null);

const recordingKept = (state: PresentBot): boolean =>
  state.recordingKey !== null && (state.artifacts[state.recordingKey] === 'stored' || state.artifacts[state.recordingKey] === 'spilled');

const requestTranscription = (state: PresentBot, command: Extract<BotCommand, { type: 'RequestTranscription' }>) => {
  if (state.transcriptionRequests.includes(command.request_id)) return noEvents;
  if (state.status !== 'completed') return statusRejection(state.status, `Only a completed bot's recording can be transcribed (status: ${state.status})`);
  if (!command.retranscribe) {
    if (!state.transcriptionWanted || command.request_id !== INITIAL_TRANSCRIPTION) return noEvents;
  } else {
    if (runningTranscription(state) !== null) return statusRejection(state.status, 'A transcription of this bot is already running');
    if (!recordingKept(state)) return statusRejection(state.status, 'The bot has no recording to transcribe (none was made, or it has expired)');
  }
  const { type: _type, now, ...request } = command;
  return emit({ type: 'TranscriptionRequested', data: { bot_id: state.bot_id, ...request, at: now } });
};

const decide = (command: BotCommand, state: BotState) => {
  if (command.type === 'CreateBot') {
    // Creating the same bot twice is a retry of the same request: nothing more to record.
    if (state.kind === 'present') return noEvents;
    const { type: _type, now, ...data } = command;
    return emit({ type: 'BotCreated', data: { ...data, created_at: now } });
  }
  if (command.type === 'ScheduleBot') {
    if (state.kind === 'present') return noEvents;
    const invalid = invalidJoinAt(command.join_at, command.now);
    if (invalid) return invalid;
    const { type: _type, now, ...data } = command;
    return emit({ type: 'BotScheduled', data: { ...data, at: now } });
  }
  if (state.kind === 'absent') return E.left<BotRejection, readonly BotEvent[]>({ code: 'BOT_NOT_FOUND', message: 'Bot not found' });
  const bot_id = state.bot_id;
  const afterDeletion = state.dataDeleted ? afterDataDeletion(command.type, state.status) : undefined;
  if (afterDeletion !== undefined) return afterDeletion;

  switch (command.type) {
    case 'ChangeSchedule':
    case 'QueueScheduledBot':
    case 'RefuseScheduledBot':
    case 'CancelScheduledBot':
      return decideScheduled(command, state);

    case 'DispatchBot':
      // A scheduled bot is not in the queue before its time: nothing to run yet.
      if (state.dispatched || isTerminal(state.status) || state.status === 'scheduled') return noEvents;
      return emit({ type: 'BotDispatched', data: { bot_id, worker_id: command.worker_id, run_id: command.run_id, at: command.now } });

    case 'ReassignBot':
      // Another instance took it first, or it has ended: nothing to take over.
      if (!state.dispatched || isTerminal(state.status) || state.workerId !== command.from_worker_id || command.worker_id === state.workerId) return noEvents;
      return emit({ type: 'BotReassigned', data: { bot_id, from_worker_id: command.from_worker_id, worker_id: command.worker_id, at: command.now } });

    case 'ReportStatus':
      if (state.status === command.status) return noEvents;
      if (!canMoveTo(state.status, command.status)) {
        return E.left<BotRejection, readonly BotEvent[]>({
          code: 'INVALID_TRANSITION',
          message: `A bot cannot move from ${state.status} to ${command.status}`,
          status: state.status,
        });
      }
      return emit({ type: 'StatusChanged', data: { bot_id, status: command.status, at: command.now } });

    case 'ReportCallEnded':
      return isTerminal(state.status) ? noEvents : emit({ type: 'CallEnded', data: { bot_id, at: command.now } });

    case 'RequestLeave':
      if (isTerminal(state.status)) return statusRejection(state.status, `Bot has already ended (${state.status})`);
      // The spec: leave on a scheduled bot that has not started cancels it.
      if (state.status === 'scheduled') return failedBeforeStart(state, EXITING_MEETING_BEFORE_RECORD, CANCELLED_MESSAGE, command.now);
      // Nothing runs the bot yet, so there is nobody to ask: it ends here, before any recording.
      if (!state.dispatched) {
        return emit({
          type: 'BotFailed',
          data: {
            bot_id,
            error_code: EXITING_MEETING_BEFORE_RECORD,
            error_message: 'The bot was asked to leave before it joined the meeting.',
            usage: noUsage,
            at: command.now,
          },
        });
      }
      if (state.leaveRequested) return noEvents;
      return emit({ type: 'BotLeaveRequested', data: { bot_id, at: command.now } });

    case 'CheckChatMessageAllowed':
      if (!isInCall(state.status)) {
        return statusRejection(state.status, `Chat messages can only be sent while the bot is in the call (status: ${state.status})`);
      }
      return noEvents;

    case 'RecordChatMessageSent':
      // No status check here: it was made before the bot was asked, and the bot has posted the message.
      if (state.chatMessageIds.includes(command.message_id)) return noEvents;
      return emit({ type: 'ChatMessageSent', data: { bot_id, message_id: command.message_id, message: command.message, at: command.now } });

    case 'RequestChatMessage':
    case 'RecordChatAnswer':
    case 'AcknowledgeLeave':
      return decideControl(command, state);

    case 'RecordArtifact': {
      // Stored at last after a spill or a failed attempt; a repeat, or an artifact already expired, is nothing.
      const was = state.artifacts[command.key];
      if (was === 'stored' || was === 'expired') return noEvents;
      const { type: _type, now, ...artifact } = command;
      return emit({ type: 'ArtifactStored', data: { bot_id, ...artifact, at: now } });
    }

    case 'RecordArtifactSpilled': {
      const was = state.artifacts[command.key];
      if (was !== undefined && was !== 'lost') return noEvents;
      const { type: _type, now, ...artifact } = command;
      return emit({ type: 'ArtifactSpilled', data: { bot_id, ...artifact, at: now } });
    }

    case 'RecordArtifactUploadFailed': {
      if (state.artifacts[command.key] !== undefined) return noEvents;
      const { type: _type, now, ...artifact } = command;
      return emit({ type: 'ArtifactUploadFailed', data: { bot_id, ...artifact, at: now } });
    }

    case 'ExpireArtifacts': {
      const keys = command.keys.filter((key) => state.artifacts[key] === 'stored' || state.artifacts[key] === 'spilled');
      if (keys.length === 0) return noEvents;
      return emit({ type: 'ArtifactsExpired', data: { bot_id, keys: [...new Set(keys)], at: command.now } });
    }

    case 'RecordParticipants':
      if (state.participantsReported) return noEvents;
      return emit({
        type: 'ParticipantsReported',
        data: { bot_id, participants: [...command.participants], speakers: [...command.speakers], at: command.now },
      });

    case 'RequestTranscription':
      return requestTranscription(state, command);

    case 'RecordTranscriptionJob': {
      if (state.transcriptionRunning !== command.request_id || state.transcriptionJob === command.job_id) return noEvents;
      if (state.transcriptionJob !== null) {
        return E.left<BotRejection, readonly BotEvent[]>({
          code: 'INVALID_TRANSITION',
          message: `The transcription ${command.request_id} already has job ${state.transcriptionJob} at the provider`,
          status: state.status,
        });
      }
      const { request_id, provider, job_id, now } = command;
      return emit({ type: 'TranscriptionJobSubmitted', data: { bot_id, request_id, provider, job_id, at: now } });
    }

    case 'CompleteTranscription': {
      if (state.transcriptionRunning !== command.request_id) return noEvents;
      const { request_id, provider, artifacts, utterances, now } = command;
      // A re-transcribe writes the same keys again: each is stored anew.
      const stored = artifacts.map((a): BotEvent => ({ type: 'ArtifactStored', data: { bot_id, ...a, at: now } }));
      return emit(...stored, { type: 'TranscriptionCompleted', data: { bot_id, request_id, provider, keys: artifacts.map((a) => a.key), utterances, at: now } });
    }

    case 'FailTranscription': {
      if (state.transcriptionRunning !== command.request_id) return noEvents;
      const { request_id, provider, error_message, now } = command;
      return emit({ type: 'TranscriptionFailed', data: { bot_id, request_id, provider, error_code: TRANSCRIPTION_FAILED, error_message, at: now } });
    }
    case 'DeleteBotData':
    case 'RecordArtifactsErased':
      return decideDataDeletion(command, { ...state, transcriptionUnderWay: runningTranscription(state) !== null });

    case 'RecordDataAccess':
      return emit({ type: 'BotDataAccessed', data: { bot_id, key_id: command.key_id, reads: command.reads, at: command.now } });

    case 'EndBot':
      // A crash detected after the bot's own end report changes nothing.
      if (isTerminal(state.status)) return noEvents;
      return emit(endEvent(state, command));
  }
};

const withRecording = (state: PresentBot, artifact: { readonly artifact_type: string; readonly key: string }): PresentBot =>
  artifact.artifact_type === 'recording' ? { ...state, recordingKey: artifact.key } : state;

/** A bot that has just come to be: scheduled for later (with its schedule), or created and queued. */
const newBot = (data: { readonly bot_id: string; readonly team_id: string; readonly platform: Platform }, schedule: Schedule | null): PresentBot => ({
  kind: 'present',
  bot_id: data.bot_id,
  team_id: data.team_id,
  platform: data.platform,
  status: schedule === null ? 'queued' : 'scheduled',
  queued: schedule === null,
  schedule,
  dispatched: false,
  workerId: null,
  runId: null,
  leaveRequested: false,
  everRecorded: false,
  chatMessageIds: [],
  control: initialControl,
  artifacts: {},
  participantsReported: false,
  transcriptionWanted: false,
  recordingKey: null,
  transcriptionRequests: [],
  transcriptionRunning: null,
  dataDeleted: false,
  artifactsErased: false,
  transcriptionJob: null,
});

const evolve = (state: BotState, event: BotEvent): BotState => {
  if (event.type === 'BotScheduled') {
    if (state.kind === 'present') return state;
    const { bot_id: _bot, team_id: _team, join_at, at: _at, ...definition } = event.data;
    return newBot(event.data, { join_at, definition, version: 1 });
  }
  // For a scheduled bot too: queued at its time, it is from then on a bot like any other.
  if (event.type === 'BotCreated') return { ...newBot(event.data, null), transcriptionWanted: event.data.config.transcription !== null };
  if (state.kind === 'absent') return state;
  switch (event.type) {
    case 'BotScheduleChanged': {
      if (state.schedule === null) return state;
      // The key of the change replaces the first one: the bot acts for whoever defined what it now is.
      const { bot_id: _bot, join_at, at: _at, ...definition } = event.data;
      return {
        ...state,
        platform: definition.platform,
        schedule: { join_at, definition, version: state.schedule.version + 1 },
      };
    }
    case 'BotDispatched':
      return { ...state, dispatched: true, workerId: event.data.worker_id, runId: event.data.run_id ?? null };
    case 'BotReassigned':
      return { ...state, workerId: event.data.worker_id };
    case 'StatusChanged':
      return { ...state, status: event.data.status, everRecorded: state.everRecorded || hasStartedRecording(event.data.status) };
    case 'CallEnded':
    case 'BotDataAccessed':
      return state;
    case 'BotLeaveRequested':
      return { ...state, leaveRequested: true };
    case 'ChatMessageSent':
      return { ...state, chatMessageIds: [...state.chatMessageIds, event.data.message_id], control: evolveControl(state.control, event) };
    case 'ChatMessageRequested':
    case 'ChatMessageFailed':
    case 'BotLeaveAcknowledged':
      return { ...state, control: evolveControl(state.control, event) };
    case 'ArtifactStored':
      return { ...withRecording(state, event.data), artifacts: { ...state.artifacts, [event.data.key]: 'stored' } };
    case 'ArtifactSpilled':
      return { ...withRecording(state, event.data), artifacts: { ...state.artifacts, [event.data.key]: 'spilled' } };
    case 'ArtifactUploadFailed':
      return { ...state, artifacts: { ...state.artifacts, [event.data.key]: 'lost' } };
    case 'ArtifactsExpired':
      return { ...state, artifacts: { ...state.artifacts, ...Object.fromEntries(event.data.keys.map((key) => [key, 'expired' as const])) } };
    case 'ParticipantsReported':
      return { ...state, participantsReported: true };
    case 'BotCompleted':
      return { ...state, status: 'completed' };
    case 'BotFailed':
      return { ...state, status: failedStatus(state.status, event.data.error_code), schedule: null };
    case 'TranscriptionRequested':
      return { ...state, transcriptionRequests: [...state.transcriptionRequests, event.data.request_id], transcriptionRunning: event.data.request_id, transcriptionJob: null };
    case 'TranscriptionJobSubmitted':
      return { ...state, transcriptionJob: event.data.job_id };
    case 'TranscriptionCompleted':
    case 'TranscriptionFailed':
      return { ...state, transcriptionRunning: null, transcriptionJob: null };
    case 'BotDataDeleted':
      return { ...state, dataDeleted: true };
    case 'BotArtifactsErased':
      return { ...state, artifactsErased: true };
  }
};

export const botDecider: Decider<BotCommand, BotEvent, BotState, BotRejection> = { decide, evolve, initialState };
