import * as E from 'fp-ts/Either';
import { type BotControlCommand, type ControlState, decideControl, evolveControl, initialControl } from './bot-control';
import type { Decider } from '../decider';
import type { BotConfig, RequestedBotConfig, TeamSettingsOfBot } from './bot-config';
import { INITIAL_TRANSCRIPTION, type BotEvent, type CreatedBy, type Usage } from './bot-events';
import type { Sealed } from '../codec-helpers';
import { canMoveTo, hasStartedRecording, isInCall, isTerminal, type BotStatus, type ReportableStatus } from './bot-status';
import { EXITING_MEETING_BEFORE_RECORD, failedStatus, isNormalEnd, TRANSCRIPTION_FAILED } from './end-codes';
import { joinAtProblem } from './schedule-timing';

type Platform = 'vc' | 'tm' | 'mt';

/**
 * What a bot is asked to do, as a scheduled bot keeps it until its time (PATCH replaces it whole); the
 * team's settings (storage, retention) join its config when it is queued.
 */
export interface BotDefinition {
  readonly meeting_url: string;
  readonly platform: Platform;
  readonly bot_name: string;
  readonly extra: Record<string, unknown> | null;
  readonly config: RequestedBotConfig;
}

export type BotCommand =
  | {
      readonly type: 'CreateBot';
      readonly bot_id: string;
      readonly team_id: string;
      readonly meeting_url: string;
      readonly platform: Platform;
      readonly bot_name: string;
      readonly extra: Record<string, unknown> | null;
      readonly config: BotConfig;
      readonly created_by: CreatedBy | null;
      readonly now: string;
    }
  | ({
      readonly type: 'ScheduleBot';
      readonly bot_id: string;
      readonly team_id: string;
      readonly created_by: CreatedBy | null;
      readonly join_at: string;
      readonly now: string;
    } & BotDefinition)
  /**
   * PATCH: the whole new definition and time, decided against the version the caller read (no lost
   * update), and the key that made it (the bot acts for it from then on).
   */
  | ({
      readonly type: 'ChangeSchedule';
      readonly schedule_version: number;
      readonly created_by: CreatedBy | null;
      readonly join_at: string;
      readonly now: string;
    } & BotDefinition)
  /**
   * The scheduler queues the bot at its time, once its reservation and meeting registration are taken for
   * the definition of `schedule_version`: a definition changed in between is refused (SCHEDULE_CHANGED).
   */
  | { readonly type: 'QueueScheduledBot'; readonly schedule_version: number; readonly settings: TeamSettingsOfBot; readonly now: string }
  /** Queueing at its time was refused (daily cap, tokens, duplicate) or came too late: the bot ends failed. */
  | { readonly type: 'RefuseScheduledBot'; readonly error_code: string; readonly error_message: string; readonly now: string }
  /** DELETE /v2/bots/scheduled/{id}: only before its time. */
  | { readonly type: 'CancelScheduledBot'; readonly now: string }
  | { readonly type: 'DispatchBot'; readonly worker_id: string; readonly run_id: string; readonly now: string }
  /** Takes over a running bot of an instance that is gone; only if that instance still holds it. */
  | { readonly type: 'ReassignBot'; readonly from_worker_id: string; readonly worker_id: string; readonly now: string }
  | { readonly type: 'ReportStatus'; readonly status: ReportableStatus; readonly now: string }
  | { readonly type: 'ReportCallEnded'; readonly now: string }
  | { readonly type: 'RequestLeave'; readonly now: string }
  /** Asked before the running bot is: chat only while the bot is in the call (409 otherwise). Records nothing. */
  | { readonly type: 'CheckChatMessageAllowed'; readonly now: string }
  /**
   * The running bot has confirmed that it posted the message: the fact is recorded whatever the status is
   * now (the bot may have ended in between), once per message id.
   */
  | { readonly type: 'RecordChatMessageSent'; readonly message_id: string; readonly message: string; readonly now: string }
  | BotControlCommand
  | {
      readonly type: 'RecordArtifact';
      readonly artifact_type: string;
      readonly key: string;
      readonly content_type: string;
      readonly size_bytes: number;
      readonly now: string;
    }
  | {
      readonly type: 'RecordArtifactSpilled';
      readonly artifact_type: string;
      readonly key: string;
      readonly content_type: string;
      readonly size_bytes: number;
      readonly reason: string;
      readonly now: string;
    }
  | { readonly type: 'RecordArtifactUploadFailed'; readonly artifact_type: string; readonly key: string; readonly content_type: string; readonly reason: string; readonly now: string }
  /** Retention: the listed artifacts were deleted; only those still kept (stored or spilled) are recorded. */
  | { readonly type: 'ExpireArtifacts'; readonly keys: readonly string[]; readonly now: string }
  /** Reported once, at the end of the run; a repeat (a retried report) records nothing more. */
  | { readonly type: 'RecordParticipants'; readonly participants: readonly string[]; readonly speakers: readonly string[]; readonly now: string }
  /**
   * Transcribe the completed bot's recording: the first time by itself (`retranscribe` false, only when the
   * bot asked for transcription), or again at the team's request. One runs at a time; a request id seen
   * before records nothing more.
   */
  | {
      readonly type: 'RequestTranscription';
      readonly request_id: string;
      readonly provider: string;
      readonly api_key: Sealed | null;
      readonly custom_params: Record<string, unknown> | null;
      readonly retranscribe: boolean;
      readonly now: string;
    }
  /**
   * A hosted provider accepted the running transcription's job. The first job recorded is the request's: the
   * same one again records nothing, another is refused (whoever asks waits for the recorded one instead).
   */
  | { readonly type: 'RecordTranscriptionJob'; readonly request_id: string; readonly provider: string; readonly job_id: string; readonly now: string }
  /** The running transcription's artifacts are stored; a transcription that has already ended records nothing. */
  | {
      readonly type: 'CompleteTranscription';
      readonly request_id: string;
      readonly provider: string;
      readonly artifacts: readonly TranscriptArtifact[];
      readonly utterances: number;
      readonly now: string;
    }
  | { readonly type: 'FailTranscription'; readonly request_id: string; readonly provider: string; readonly error_message: string; readonly now: string }
  /** A read of the bot's data (legacy meeting_data), by the key that read it: every read counts, ended bots too. */
  /** `reads` reads of the bot's data by one key, the last one `now` */
  | { readonly type: 'RecordDataAccess'; readonly key_id: string; readonly reads: number; readonly now: string }
  | {
      readonly type: 'EndBot';
      readonly outcome: 'completed' | 'failed';
      readonly error_code: string;
      readonly error_message: string;
      readonly usage: Usage;
      readonly now: string;
    };

export interface TranscriptArtifact {
  readonly artifact_type: string;
  readonly key: string;
  readonly content_type: string;
  readonly size_bytes: number;
}

export type BotRejection =
  | { readonly code: 'BOT_NOT_FOUND'; readonly message: string }
  | { readonly code: 'BOT_STATUS'; readonly message: string; readonly status: BotStatus }
  | { readonly code: 'INVALID_TRANSITION'; readonly message: string; readonly status: BotStatus }
  | { readonly code: 'INVALID_JOIN_AT'; readonly message: string }
  | { readonly code: 'SCHEDULE_CHANGED'; readonly message: string };

/** A scheduled bot before its time: what it will be and when, and how many times that was set. */
export interface Schedule {
  readonly join_at: string;
  readonly definition: BotDefinition & { readonly created_by: CreatedBy | null };
  readonly version: number;
}

/** stored: in the bot's storage; spilled: held by the service until its bucket accepts it; lost; expired. */
export type ArtifactState = 'stored' | 'spilled' | 'lost' | 'expired';

export type BotState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly bot_id: string;
      readonly team_id: string;
      readonly platform: Platform;
      readonly status: BotStatus;
      /** reserved and queued (BotCreated): every immediate bot from the start, a scheduled bot at its time */
      readonly queued: boolean;
      /** set while a scheduled bot waits for its time */
      readonly schedule: Schedule | null;
      readonly dispatched: boolean;
      /** the instance that runs (or watches) the bot, once dispatched */
      readonly workerId: string | null;
      /** the run its token is bound to, once dispatched */
      readonly runId: string | null;
      readonly leaveRequested: boolean;
      readonly everRecorded: boolean;
      readonly chatMessageIds: readonly string[];
      /** control requests recorded for the running bot (chat, the standing leave) and their answers */
      readonly control: ControlState;
      /** what became of each artifact key */
      readonly artifacts: Readonly<Record<string, ArtifactState>>;
      readonly participantsReported: boolean;
      /** the bot asked for transcription when it was created */
      readonly transcriptionWanted: boolean;
      /** the key of the bot's recording, once reported */
      readonly recordingKey: string | null;
      readonly transcriptionRequests: readonly string[];
      /** the request id of the transcription under way */
      readonly transcriptionRunning: string | null;
      /** the provider's job of the transcription under way, once recorded */
      readonly transcriptionJob: string | null;
    };

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
  }
};

export const botDecider: Decider<BotCommand, BotEvent, BotState, BotRejection> = { decide, evolve, initialState };
