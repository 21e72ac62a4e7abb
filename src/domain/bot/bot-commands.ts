import type { BotControlCommand } from './bot-control';
import type { BotConfig, RequestedBotConfig, TeamSettingsOfBot } from './bot-config';
import type { CreatedBy, Usage } from './bot-events';
import type { Sealed } from '../codec-helpers';
import type { BotStatus, ReportableStatus } from './bot-status';
import type { DataDeletionCommand } from './bot-data-deletion';

/** What can be asked of a bot, and how the bot's decider refuses. */

export type Platform = 'vc' | 'tm' | 'mt';

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
  /** the team's deletion of the bot's data, and the erasure of its artifacts (bot-data-deletion.ts) */
  | DataDeletionCommand
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
