import type { DomainEvent } from '../domain/all-events';
import { isBotEvent } from '../domain/bot/bot-events';
import type { BotStatus } from '../domain/bot/bot-status';
import { failedStatus } from '../domain/bot/end-codes';
import { DELETED_MEETING_URL, DELETED_TEXT } from '../domain/bot/personal-data';
import type { Projection } from './projection';

/**
 * stored: in the bot's storage; spilled: the team's bucket refused it and the service holds a copy until an
 * upload succeeds; failed: lost after retries; expired: deleted when the retention period ended; deleted:
 * the team deleted the bot's data.
 */
export const ARTIFACT_STATUSES = ['stored', 'spilled', 'failed', 'expired', 'deleted'] as const;
export type ArtifactStatus = (typeof ARTIFACT_STATUSES)[number];

/** What has a link and content: an artifact still kept, in the bot's storage or held by the service. */
export const isKept = (artifact: Pick<ArtifactView, 'status'>): boolean => artifact.status === 'stored' || artifact.status === 'spilled';

export interface ArtifactView {
  readonly artifact_type: string;
  readonly key: string;
  readonly content_type: string;
  readonly size_bytes: number;
  readonly created_at: string;
  readonly status: ArtifactStatus;
  /** why it is spilled or failed; null otherwise */
  readonly status_message: string | null;
}

/** The artifact under its key replaced (a spilled one stored at last), or added. */
const withArtifact = (doc: BotView, artifact: ArtifactView): BotView => {
  const index = doc.artifacts.findIndex((a) => a.key === artifact.key);
  if (index < 0) return { ...doc, artifacts: [...doc.artifacts, artifact] };
  return { ...doc, artifacts: doc.artifacts.map((a, i) => (i === index ? { ...artifact, created_at: a.created_at } : a)) };
};

/** The v2 bot as the API shows it, plus what the API filters on (team_id) and never shows. */
export type BotView = {
  readonly id: string;
  readonly team_id: string;
  readonly bot_id: string;
  readonly status: BotStatus;
  readonly meeting_url: string;
  readonly bot_name: string;
  readonly platform: 'vc' | 'tm' | 'mt';
  readonly extra: Record<string, unknown> | null;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly created_at: string;
  readonly ended_at: string | null;
  readonly status_history: readonly { readonly status: BotStatus; readonly created_at: string }[];
  readonly artifacts: readonly ArtifactView[];
  readonly dispatched: boolean;
  /** the service instance that runs the bot, once dispatched */
  readonly worker_id: string | null;
  readonly leave_requested: boolean;
  /** the last transcription asked for; null when none was (absent in documents written before it) */
  readonly transcription?: TranscriptionView | null;
  /** the bot asked for transcription when it was defined (absent in documents written before it) */
  readonly transcription_wanted?: boolean;
  /** a scheduled bot's time (null for a bot created to join at once) */
  readonly join_at: string | null;
  /** when the team deleted the bot's data, and when its artifacts were erased (absent before issue 25: null) */
  readonly data_deleted_at?: string | null;
  readonly artifacts_erased_at?: string | null;
};

export interface TranscriptionView {
  readonly provider: string;
  readonly status: 'running' | 'completed' | 'failed';
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly requested_at: string;
  readonly ended_at: string | null;
}

export const BOTS = 'bots';

const withStatus = (doc: BotView, status: BotStatus, at: string): BotView => ({
  ...doc,
  status,
  status_history: [...doc.status_history, { status, created_at: at }],
});

type BotDefinitionData = Pick<BotView, 'bot_id' | 'team_id' | 'meeting_url' | 'bot_name' | 'platform' | 'extra'> & {
  readonly config: { readonly transcription: unknown };
};

/** A bot's first document: scheduled for later, or queued at once. */
const newBotView = (d: BotDefinitionData, first: { readonly status: 'scheduled' | 'queued'; readonly at: string; readonly join_at: string | null }): BotView => ({
  id: d.bot_id,
  team_id: d.team_id,
  bot_id: d.bot_id,
  status: first.status,
  meeting_url: d.meeting_url,
  bot_name: d.bot_name,
  platform: d.platform,
  extra: d.extra,
  error_code: null,
  error_message: null,
  created_at: first.at,
  ended_at: null,
  status_history: [{ status: first.status, created_at: first.at }],
  artifacts: [],
  dispatched: false,
  worker_id: null,
  leave_requested: false,
  join_at: first.join_at,
  transcription: null,
  transcription_wanted: d.config.transcription !== null,
});

export const botViewProjection: Projection<BotView> = {
  collection: BOTS,
  indexes: [
    // GET /v2/bots: a team's bots, newest first.
    [
      { field: 'team_id', direction: 'asc' },
      { field: 'created_at', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ],
    // What a start reads, which must not grow with history: the bots not ended (dispatcher, watches),
    // and the bots waiting for their time (scheduler), oldest first.
    [
      { field: 'ended_at', direction: 'asc' },
      { field: 'created_at', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ],
    [
      { field: 'status', direction: 'asc' },
      { field: 'created_at', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ],
  ],
  documentId: (event) => (isBotEvent(event) ? event.data.bot_id : null),
  evolve: (doc, event: DomainEvent) => {
    if (event.type === 'BotScheduled') {
      const { at, join_at } = event.data;
      return newBotView(event.data, { status: 'scheduled', at, join_at });
    }
    // A scheduled bot queued at its time keeps its creation time, its join_at and its history.
    if (event.type === 'BotCreated' && doc !== null) {
      const { meeting_url, bot_name, platform, extra, created_at, config } = event.data;
      return { ...withStatus(doc, 'queued', created_at), meeting_url, bot_name, platform, extra, transcription_wanted: config.transcription !== null };
    }
    if (event.type === 'BotCreated') return newBotView(event.data, { status: 'queued', at: event.data.created_at, join_at: null });
    if (doc === null) return null;
    switch (event.type) {
      case 'BotScheduleChanged': {
        const { meeting_url, bot_name, platform, extra, join_at, config } = event.data;
        return { ...doc, meeting_url, bot_name, platform, extra, join_at, transcription_wanted: config.transcription !== null };
      }
      case 'BotDispatched':
        return { ...doc, dispatched: true, worker_id: event.data.worker_id };
      case 'BotReassigned':
        return { ...doc, worker_id: event.data.worker_id };
      case 'StatusChanged':
        return withStatus(doc, event.data.status, event.data.at);
      case 'BotLeaveRequested':
        return { ...doc, leave_requested: true };
      case 'ArtifactStored': {
        const { bot_id: _bot, at, ...artifact } = event.data;
        return withArtifact(doc, { ...artifact, created_at: at, status: 'stored', status_message: null });
      }
      case 'ArtifactSpilled': {
        const { bot_id: _bot, at, reason, ...artifact } = event.data;
        return withArtifact(doc, { ...artifact, created_at: at, status: 'spilled', status_message: reason });
      }
      case 'ArtifactUploadFailed': {
        const { bot_id: _bot, at, reason, ...artifact } = event.data;
        return withArtifact(doc, { ...artifact, size_bytes: 0, created_at: at, status: 'failed', status_message: reason });
      }
      case 'ArtifactsExpired': {
        const expired = new Set(event.data.keys);
        return { ...doc, artifacts: doc.artifacts.map((a) => (expired.has(a.key) ? { ...a, status: 'expired' as const, status_message: null } : a)) };
      }
      case 'BotCompleted':
        return { ...withStatus(doc, 'completed', event.data.at), error_code: event.data.end_reason, ended_at: event.data.at };
      case 'BotFailed':
        return {
          ...withStatus(doc, failedStatus(doc.status, event.data.error_code), event.data.at),
          error_code: event.data.error_code,
          error_message: event.data.error_message,
          ended_at: event.data.at,
        };
      // Its personal fields read as deleted from now on (their key is destroyed); its artifacts have no link.
      case 'BotDataDeleted':
        return {
          ...doc,
          bot_name: DELETED_TEXT,
          meeting_url: DELETED_MEETING_URL,
          extra: null,
          data_deleted_at: event.data.at,
          artifacts: doc.artifacts.map((a) => ({ ...a, status: 'deleted' as const, status_message: null })),
        };
      case 'BotArtifactsErased':
        return { ...doc, artifacts_erased_at: event.data.at };
      case 'TranscriptionRequested':
        return {
          ...doc,
          transcription: { provider: event.data.provider, status: 'running', error_code: null, error_message: null, requested_at: event.data.at, ended_at: null },
        };
      case 'TranscriptionCompleted':
        return doc.transcription ? { ...doc, transcription: { ...doc.transcription, status: 'completed', ended_at: event.data.at } } : doc;
      case 'TranscriptionFailed': {
        const { error_code, error_message, at } = event.data;
        return doc.transcription ? { ...doc, transcription: { ...doc.transcription, status: 'failed', error_code, error_message, ended_at: at } } : doc;
      }
      default:
        return null;
    }
  },
};
