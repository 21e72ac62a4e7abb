import type { ControlState } from './bot-control';
import type { CreatedBy } from './bot-events';
import type { BotStatus } from './bot-status';
import type { BotDefinition, Platform } from './bot-commands';

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
      /** the team deleted the bot's data (BotDataDeleted), and its artifacts are erased (BotArtifactsErased) */
      readonly dataDeleted: boolean;
      readonly artifactsErased: boolean;
    };
