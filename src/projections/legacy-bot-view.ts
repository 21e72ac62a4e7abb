import { createHash } from 'node:crypto';
import type { DomainEvent } from '../domain/all-events';
import type { BotConfig } from '../domain/bot/bot-config';
import { isBotEvent } from '../domain/bot/bot-events';
import { TRANSCRIPTION } from '../domain/transcription/transcript-artifacts';
import { isInCall, type BotStatus } from '../domain/bot/bot-status';
import { EXITING_MEETING_BEFORE_RECORD } from '../domain/bot/end-codes';
import { DELETED_MEETING_URL, DELETED_TEXT } from '../domain/bot/personal-data';
import { extraTexts, foldForSearch } from './legacy-bot-search';
import type { Projection } from './projection';

/** What the legacy views show of a bot's configuration: never a secret (tokens, passwords, API keys). */
export interface LegacyBotSettings {
  readonly recording_mode: BotConfig['recording_mode'];
  readonly entry_message: string | null;
  readonly deduplication_key: string | null;
  readonly webhook_url: string | null;
  readonly waiting_room_timeout: number;
  readonly noone_joined_timeout: number;
  readonly silence_timeout: number;
  readonly bot_image: string | null;
  readonly speech_to_text_provider: string | null;
  readonly transcription_custom_parameters: Record<string, unknown> | null;
  readonly streaming_input: string | null;
  readonly streaming_output: string | null;
  readonly streaming_audio_frequency: string | null;
  readonly vc_obf_token_url: string | null;
  readonly vc_obf_token_user_id: string | null;
  readonly vc_sdk_id: string | null;
  readonly vc_access_token_url: string | null;
}

/**
 * A bot as the legacy API shows it (`bots_with_metadata`, `meeting_data`), for every bot of the team
 * whichever API created it, plus the folded copies its searches compare.
 */
export type LegacyBotView = {
  readonly id: string;
  readonly team_id: string;
  /** the legacy integer id: the team's bots numbered 1, 2, 3, ... in the order the log created them */
  readonly legacy_id: number;
  readonly created_by_api: 'v2' | 'legacy';
  readonly bot_name: string;
  readonly bot_name_folded: string;
  readonly meeting_url: string;
  readonly meeting_url_folded: string;
  readonly extra: Record<string, unknown> | null;
  /** each `extra` field's text under its encoded name (legacy-bot-search.ts) */
  readonly extra_text: Record<string, string>;
  readonly created_at: string;
  /** the time of the last change to what the legacy views show: what the list's `last_updated` reports */
  readonly updated_at: string;
  readonly ended_at: string | null;
  readonly joined_at: string | null;
  readonly exited_at: string | null;
  /** whole seconds recorded, from the bot's end usage; null until it ends */
  readonly duration: number | null;
  readonly speakers: readonly string[];
  readonly speakers_folded: readonly string[];
  readonly session_id: string | null;
  readonly access_count: number;
  readonly last_accessed_at: string | null;
  readonly status: BotStatus;
  /** the v2 end code (end reason or error code) once ended */
  readonly end_code: string | null;
  readonly error_message: string | null;
  /** a leave was asked through the API */
  readonly stopped: boolean;
  readonly recording: { readonly key: string; readonly content_type: string } | null;
  readonly participants_file: string | null;
  /** the diarized transcript's key, once a transcription made one (absent in documents written before) */
  readonly transcript_file?: string | null;
  readonly settings: LegacyBotSettings;
  /** when the team deleted the bot's data (absent before issue 25: null) */
  readonly data_deleted_at?: string | null;
};

export const LEGACY_BOTS = 'legacy_bots';

const settingsOf = (config: BotConfig): LegacyBotSettings => ({
  recording_mode: config.recording_mode,
  entry_message: config.entry_message,
  deduplication_key: config.deduplication_key,
  webhook_url: config.webhook_url,
  waiting_room_timeout: config.timeouts.waiting_room_timeout,
  noone_joined_timeout: config.timeouts.no_one_joined_timeout,
  silence_timeout: config.timeouts.silence_timeout,
  bot_image: config.bot_image?.urls[0] ?? null,
  speech_to_text_provider: config.transcription?.provider ?? null,
  transcription_custom_parameters: config.transcription?.custom_params ?? null,
  streaming_input: config.streaming?.input_url ?? null,
  streaming_output: config.streaming?.output_url ?? null,
  // The legacy form of a frequency: `16khz`.
  streaming_audio_frequency: config.streaming ? `${config.streaming.audio_frequency / 1000}khz` : null,
  vc_obf_token_url: config.vc?.obf?.kind === 'token_url' ? config.vc.obf.url : null,
  vc_obf_token_user_id: config.vc?.obf?.kind === 'credential_user' ? config.vc.obf.vc_user_id : null,
  vc_sdk_id: config.vc?.sdk?.sdk_id ?? null,
  vc_access_token_url: config.vc?.zak_token_url ?? null,
});

/**
 * The bot once its data is deleted: its personal fields as every reader of the log now gets them (their key is
 * destroyed), and no file to link (they are being erased). What it did and when stays.
 */
const withDataDeleted = (doc: LegacyBotView, at: string): LegacyBotView => ({
  ...doc,
  bot_name: DELETED_TEXT,
  bot_name_folded: foldForSearch(DELETED_TEXT),
  meeting_url: DELETED_MEETING_URL,
  meeting_url_folded: foldForSearch(DELETED_MEETING_URL),
  extra: null,
  extra_text: extraTexts(null),
  speakers: [],
  speakers_folded: [],
  recording: null,
  participants_file: null,
  transcript_file: null,
  settings: { ...doc.settings, entry_message: null, deduplication_key: null, transcription_custom_parameters: null },
  data_deleted_at: at,
});

/** One id per run of the bot, derived from its dispatch, so that a rebuild gives the same one. */
const sessionIdOf = (botId: string, workerId: string, at: string): string => {
  const hex = createHash('sha256').update(`${botId}\u0000${workerId}\u0000${at}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

const ended = (doc: LegacyBotView, at: string, seconds: number): Partial<LegacyBotView> => ({
  ended_at: at,
  duration: Math.round(seconds),
  // A bot that was in the call and ended without reporting call_ended (a crash) left it when it ended.
  exited_at: doc.exited_at ?? (doc.joined_at !== null ? at : null),
});

const evolve = (doc: LegacyBotView | null, event: DomainEvent, sequence: number | null): LegacyBotView | null => {
  if (event.type === 'BotCreated') {
    if (sequence === null) throw new Error('a BotCreated event draws a legacy id');
    const d = event.data;
    return {
      id: d.bot_id,
      team_id: d.team_id,
      legacy_id: sequence,
      created_by_api: d.config.api,
      bot_name: d.bot_name,
      bot_name_folded: foldForSearch(d.bot_name),
      meeting_url: d.meeting_url,
      meeting_url_folded: foldForSearch(d.meeting_url),
      extra: d.extra,
      extra_text: extraTexts(d.extra),
      created_at: d.created_at,
      updated_at: d.created_at,
      ended_at: null,
      joined_at: null,
      exited_at: null,
      duration: null,
      speakers: [],
      speakers_folded: [],
      session_id: null,
      access_count: 0,
      last_accessed_at: null,
      status: 'queued',
      end_code: null,
      error_message: null,
      stopped: false,
      recording: null,
      participants_file: null,
      transcript_file: null,
      settings: settingsOf(d.config),
    };
  }
  if (doc === null || !isBotEvent(event)) return null;
  const at = event.data.at;
  const touched = { ...doc, updated_at: at };
  switch (event.type) {
    case 'BotDispatched':
      return { ...touched, session_id: sessionIdOf(doc.id, event.data.worker_id, at) };
    case 'StatusChanged':
      return { ...touched, status: event.data.status, joined_at: doc.joined_at ?? (isInCall(event.data.status) ? at : null) };
    case 'CallEnded':
      return { ...touched, exited_at: doc.exited_at ?? at };
    case 'BotLeaveRequested':
      return { ...touched, stopped: true };
    // A spilled artifact is served by the service until its upload succeeds; links come from wherever it is.
    case 'ArtifactSpilled':
    case 'ArtifactStored': {
      const { artifact_type, key, content_type } = event.data;
      if (artifact_type === 'recording') return { ...touched, recording: { key, content_type } };
      if (artifact_type === 'participants') return { ...touched, participants_file: key };
      return null;
    }
    case 'ParticipantsReported':
      return { ...touched, speakers: event.data.speakers, speakers_folded: event.data.speakers.map(foldForSearch) };
    case 'BotDataAccessed': {
      // Coalesced reads of one key may be recorded after another key's later read: the latest read wins.
      const latest = doc.last_accessed_at !== null && Date.parse(doc.last_accessed_at) > Date.parse(at) ? doc.last_accessed_at : at;
      return { ...touched, access_count: doc.access_count + event.data.reads, last_accessed_at: latest };
    }
    case 'BotCompleted':
      return { ...touched, ...ended(doc, at, event.data.usage.recorded_seconds), status: 'completed', end_code: event.data.end_reason };
    case 'BotFailed': {
      const { error_code, error_message, usage } = event.data;
      // A leave asked of a bot that nothing ran yet ends it at once, without a leave request of its own:
      // before dispatch nothing else ends a bot with this code, so it was stopped through the API too.
      const stoppedBeforeDispatch = error_code === EXITING_MEETING_BEFORE_RECORD && doc.session_id === null;
      return {
        ...touched,
        ...ended(doc, at, usage.recorded_seconds),
        status: 'failed',
        end_code: error_code,
        error_message,
        stopped: doc.stopped || stoppedBeforeDispatch,
      };
    }
    // A scheduled bot shows in the legacy list from its queueing (its BotCreated draws its legacy id).
    case 'BotScheduled':
    case 'BotScheduleChanged':
      return null;
    // Another instance watching the same run changes nothing the legacy views show.
    case 'BotReassigned':
    case 'ChatMessageSent':
    case 'ChatMessageRequested':
    case 'ChatMessageFailed':
    case 'BotLeaveAcknowledged':
      return null;
    // A lost or expired artifact keeps its path; its link is null (the links know which artifacts are gone).
    case 'ArtifactUploadFailed':
    case 'ArtifactsExpired':
      return null;
    // meeting_data shows the last transcript made; a failed re-transcribe leaves it as it was.
    case 'TranscriptionCompleted': {
      const key = event.data.keys.find((k) => k === TRANSCRIPTION.key) ?? null;
      return key === null ? null : { ...touched, transcript_file: key };
    }
    case 'TranscriptionRequested':
    case 'TranscriptionJobSubmitted':
    case 'TranscriptionFailed':
    case 'BotArtifactsErased':
      return null;
    case 'BotDataDeleted':
      return withDataDeleted(touched, at);
  }
};

export const legacyBotViewProjection: Projection<LegacyBotView> = {
  collection: LEGACY_BOTS,
  documentId: (event) => (isBotEvent(event) ? event.data.bot_id : null),
  // Per team: a team's numbers say nothing about how many bots other teams have.
  sequenceOf: (event) => (event.type === 'BotCreated' ? `team-${event.data.team_id}` : null),
  evolve: (doc, event, { sequence }) => evolve(doc, event, sequence),
  indexes: [
    [
      { field: 'team_id', direction: 'asc' },
      { field: 'created_at', direction: 'desc' },
      { field: 'legacy_id', direction: 'desc' },
    ],
    [
      { field: 'team_id', direction: 'asc' },
      { field: 'updated_at', direction: 'desc' },
    ],
  ],
};
