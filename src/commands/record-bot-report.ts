import type { BotReport } from '../../contract/bot-contract';
import type { BotCommand } from '../domain/bot/bot-decider';
import type { CommandDeps } from './command-deps';
import { handleBotCommand, type BotCommandResult } from './bot-commands';

/** What a running bot tells the service becomes a command on its stream; the decider judges it. */
export const botCommandForReport = (report: BotReport): BotCommand => {
  switch (report.kind) {
    case 'status':
      return report.status === 'call_ended'
        ? { type: 'ReportCallEnded', now: report.at }
        : { type: 'ReportStatus', status: report.status, now: report.at };
    case 'artifact':
      return {
        type: 'RecordArtifact',
        artifact_type: report.artifact_type,
        key: report.key,
        content_type: report.content_type,
        size_bytes: report.size_bytes,
        now: report.at,
      };
    case 'artifact_spilled':
      return {
        type: 'RecordArtifactSpilled',
        artifact_type: report.artifact_type,
        key: report.key,
        content_type: report.content_type,
        size_bytes: report.size_bytes,
        reason: report.reason,
        now: report.at,
      };
    case 'artifact_failed':
      return { type: 'RecordArtifactUploadFailed', artifact_type: report.artifact_type, key: report.key, content_type: report.content_type, reason: report.reason, now: report.at };
    case 'participants':
      return { type: 'RecordParticipants', participants: report.participants, speakers: report.speakers, now: report.at };
    case 'end':
      return {
        type: 'EndBot',
        outcome: report.outcome,
        error_code: report.error_code,
        error_message: report.error_message,
        usage: {
          recorded_seconds: report.recorded_seconds,
          waiting_room_seconds: report.waiting_room_seconds,
          ...(report.streaming_seconds ? { streaming_seconds: { ...report.streaming_seconds } } : {}),
          ...(report.permission_wait_seconds ? { permission_wait_seconds: report.permission_wait_seconds } : {}),
        },
        now: report.at,
      };
  }
};

export const recordBotReport = (deps: Pick<CommandDeps, 'eventStore'>, botId: string, report: BotReport): Promise<BotCommandResult> =>
  handleBotCommand(deps, botId, botCommandForReport(report));
