import * as E from 'fp-ts/Either';
import type { BotEvent } from './bot-events';
import { isTerminal, type BotStatus } from './bot-status';

/**
 * Deleting a bot's data on the team's request (docs/decisions.md, issue 25): allowed once the bot has ended
 * and no transcription of its recording is due or running (what it would store would outlive the deletion);
 * asked again, it records nothing more. The erasure of its artifacts is recorded once every store is clean.
 */
export type DataDeletionCommand =
  | { readonly type: 'DeleteBotData'; readonly key_id: string; readonly now: string }
  | { readonly type: 'RecordArtifactsErased'; readonly keys: readonly string[]; readonly now: string };

export interface DataDeletionState {
  readonly bot_id: string;
  readonly status: BotStatus;
  /** a transcription is running, or due (the bot completed and asked for one that is not asked for yet) */
  readonly transcriptionUnderWay: boolean;
  readonly dataDeleted: boolean;
  readonly artifactsErased: boolean;
}

export type DataDeletionRejection = { readonly code: 'BOT_STATUS'; readonly message: string; readonly status: BotStatus };

type Decision = E.Either<DataDeletionRejection, readonly BotEvent[]>;

const refused = (status: BotStatus, message: string): Decision => E.left({ code: 'BOT_STATUS', message, status });

export const decideDataDeletion = (command: DataDeletionCommand, state: DataDeletionState): Decision => {
  switch (command.type) {
    case 'DeleteBotData':
      if (state.dataDeleted) return E.right([]);
      if (!isTerminal(state.status)) {
        return refused(state.status, `The bot's data can be deleted once the bot has ended (status: ${state.status}); make it leave first`);
      }
      if (state.transcriptionUnderWay) return refused(state.status, "A transcription of the bot's recording is under way: its data can be deleted once it ends");
      return E.right([{ type: 'BotDataDeleted', data: { bot_id: state.bot_id, key_id: command.key_id, at: command.now } }]);
    case 'RecordArtifactsErased':
      if (!state.dataDeleted || state.artifactsErased) return E.right([]);
      return E.right([{ type: 'BotArtifactsErased', data: { bot_id: state.bot_id, keys: [...new Set(command.keys)], at: command.now } }]);
  }
};

/** What a bot whose data was deleted no longer takes: nothing of it is kept any more, nor transcribed again. */
export type AfterDeletion = 'nothing' | 'refused';

const afterDeletionByCommand: Readonly<Record<string, AfterDeletion>> = {
  RecordArtifact: 'nothing',
  RecordArtifactSpilled: 'nothing',
  RecordArtifactUploadFailed: 'nothing',
  ExpireArtifacts: 'nothing',
  RecordParticipants: 'nothing',
  RecordChatMessageSent: 'nothing',
  RequestTranscription: 'refused',
};

/** How a command is answered once the bot's data is deleted: undefined when as any other command. */
export const afterDataDeletion = (commandType: string, status: BotStatus): Decision | undefined => {
  const answer = afterDeletionByCommand[commandType];
  if (answer === undefined) return undefined;
  return answer === 'nothing' ? E.right([]) : refused(status, "The bot's data was deleted: there is nothing left to transcribe");
};
