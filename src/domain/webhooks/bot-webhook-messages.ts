import { INITIAL_TRANSCRIPTION, type BotEvent } from '../bot/bot-events';
import { botFactsOf, type BotFacts } from '../bot/bot-facts';
import { artifactLink } from './artifact-link';
import { legacyBotMessages } from './legacy-bot-messages';

/** A message to send: its kind and its body (`{event, data}`), with artifact links as placeholders. */
export interface OutgoingMessage {
  readonly event_type: string;
  readonly payload: Record<string, unknown>;
  /** set on a message an event sends before its main one (a legacy end status): its id gets this suffix */
  readonly id_suffix?: string;
}

interface ArtifactFact {
  readonly artifact_type: string;
  readonly key: string;
  readonly size_bytes: number;
}

/**
 * What a bot's webhooks say about it, as of the event being sent: the bot's facts (bot-facts.ts) and what
 * it reported and produced.
 */
export interface BotWebhookFacts extends BotFacts {
  readonly artifacts: readonly ArtifactFact[];
  readonly participants: readonly string[];
  readonly speakers: readonly string[];
  /** the bot reported leaving the call (the legacy `call_ended`) */
  readonly call_ended: boolean;
  /** a leave was asked through the API */
  readonly leave_requested: boolean;
  /** the last transcription asked for, and how it went */
  readonly transcription: TranscriptionFacts | null;
}

export interface TranscriptionFacts {
  readonly request_id: string;
  readonly provider: string;
  readonly status: 'running' | 'completed' | 'failed';
  readonly error_code: string | null;
  readonly error_message: string | null;
}

/**
 * Audio chunks and screenshots are many (one every few seconds) and are listed by GET /v2/bots/{id}; the
 * final event links what a team acts on (recording, chat, participants, log, transcripts), so that it stays
 * small (Standard Webhooks recommends well under 20 kB).
 */
const listedInFinalEvent = (artifactType: string): boolean => artifactType !== 'audio_chunk' && artifactType !== 'screenshot';

type Reported = Pick<BotWebhookFacts, 'artifacts' | 'participants' | 'speakers' | 'call_ended' | 'leave_requested' | 'transcription'>;

const nothingReported: Reported = { artifacts: [], participants: [], speakers: [], call_ended: false, leave_requested: false, transcription: null };

const evolveReported = (reported: Reported, event: BotEvent): Reported => {
  switch (event.type) {
    case 'ArtifactStored': {
      const { artifact_type, key, size_bytes } = event.data;
      // a re-transcribe stores its keys again: the artifact keeps its place
      const artifact: ArtifactFact = { artifact_type, key, size_bytes };
      const known = reported.artifacts.some((a) => a.key === key);
      return { ...reported, artifacts: known ? reported.artifacts.map((a) => (a.key === key ? artifact : a)) : [...reported.artifacts, artifact] };
    }
    case 'ParticipantsReported':
      return { ...reported, participants: event.data.participants, speakers: event.data.speakers };
    case 'TranscriptionRequested': {
      const { request_id, provider } = event.data;
      return { ...reported, transcription: { request_id, provider, status: 'running', error_code: null, error_message: null } };
    }
    case 'TranscriptionCompleted':
      return reported.transcription ? { ...reported, transcription: { ...reported.transcription, status: 'completed' } } : reported;
    case 'TranscriptionFailed': {
      const { error_code, error_message } = event.data;
      return reported.transcription ? { ...reported, transcription: { ...reported.transcription, status: 'failed', error_code, error_message } } : reported;
    }
    case 'CallEnded':
      return { ...reported, call_ended: true };
    case 'BotLeaveRequested':
      return { ...reported, leave_requested: true };
    default:
      return reported;
  }
};

/** A scheduled bot is known from its schedule: a refusal or a cancel before its time still reaches the team. */
export const botWebhookFactsOf = (events: readonly BotEvent[]): BotWebhookFacts | null => {
  const bot = botFactsOf(events);
  return bot && { ...bot, ...events.reduce(evolveReported, nothingReported) };
};

const linkedArtifacts = (artifacts: readonly ArtifactFact[]) =>
  artifacts.map((a) => ({ artifact_type: a.artifact_type, url: artifactLink(a.key, 'url'), url_expires_at: artifactLink(a.key, 'expires_at'), size_bytes: a.size_bytes }));

const transcriptionOf = (facts: BotWebhookFacts) => {
  const t = facts.transcription;
  return t && { provider: t.provider, status: t.status, error_code: t.error_code, error_message: t.error_message };
};

/**
 * `bot.completed`: a bot that asked for transcription sends it once its first transcription has ended, so
 * that it links the transcript (or says TRANSCRIPTION_FAILED in `transcription`; the bot stays completed).
 */
const completedMessage = (facts: BotWebhookFacts): OutgoingMessage[] => {
  const completed = facts.outcome;
  if (completed?.status !== 'completed') return [];
  const data = {
    bot_id: facts.bot_id,
    extra: facts.extra,
    status: { code: 'completed', created_at: completed.at },
    error_code: completed.end_reason,
    duration_seconds: completed.usage.recorded_seconds,
    joined_at: facts.times.joined_at,
    exited_at: completed.at,
    participants: facts.participants,
    speakers: facts.speakers,
    artifacts: linkedArtifacts(facts.artifacts.filter((a) => listedInFinalEvent(a.artifact_type))),
    ...(facts.config.transcription === null ? {} : { transcription: transcriptionOf(facts) }),
  };
  return [{ event_type: 'bot.completed', payload: { event: 'bot.completed', data } }];
};

/** The end of a re-transcribe (docs/decisions.md): its own event, with the transcript's links. */
const retranscribedMessage = (facts: BotWebhookFacts, event_type: string, keys: readonly string[]): OutgoingMessage[] => {
  const data = {
    bot_id: facts.bot_id,
    extra: facts.extra,
    transcription: transcriptionOf(facts),
    artifacts: linkedArtifacts(facts.artifacts.filter((a) => keys.includes(a.key))),
  };
  return [{ event_type, payload: { event: event_type, data } }];
};

/** The v2 events of DESIGN.md for one bot event; most bot events send nothing. */
export const v2BotMessages = (facts: BotWebhookFacts, event: BotEvent): readonly OutgoingMessage[] => {
  const base = { bot_id: facts.bot_id, extra: facts.extra };
  switch (event.type) {
    case 'TranscriptionCompleted':
      return event.data.request_id === INITIAL_TRANSCRIPTION ? completedMessage(facts) : retranscribedMessage(facts, 'bot.transcription_completed', event.data.keys);
    case 'TranscriptionFailed':
      return event.data.request_id === INITIAL_TRANSCRIPTION ? completedMessage(facts) : retranscribedMessage(facts, 'bot.transcription_failed', []);
    case 'StatusChanged': {
      const { status, at } = event.data;
      const code = { code: status, created_at: at, ...(status === 'in_call_recording' ? { start_time: at } : {}) };
      return [{ event_type: 'bot.status_change', payload: { event: 'bot.status_change', data: { ...base, status: code } } }];
    }
    case 'BotCompleted':
      return facts.config.transcription === null ? completedMessage(facts) : [];
    case 'BotFailed': {
      // Its status as bot.completed has its own: `failed`, or `cancelled` for a scheduled bot ended before its time.
      const status = { code: facts.outcome?.status ?? 'failed', created_at: event.data.at };
      const data = { ...base, status, error_code: event.data.error_code, error_message: event.data.error_message };
      return [{ event_type: 'bot.failed', payload: { event: 'bot.failed', data } }];
    }
    default:
      return [];
  }
};

/** The messages of a bot event, in the shape of the API that created the bot. */
export const botMessages = (facts: BotWebhookFacts, event: BotEvent): readonly OutgoingMessage[] =>
  facts.config.api === 'v2' ? v2BotMessages(facts, event) : legacyBotMessages(facts, event);

/**
 * One Standard Webhooks `webhook-id` per event that caused a message: the same for every target and every
 * attempt, and the same again when the event is seen again (its id in the log is stable).
 */
export const messageIdOfEvent = (eventId: string): string => `msg_${eventId.replace(/-/g, '')}`;

/** The id of one of an event's messages: the event's, with the message's suffix when it has one. */
export const messageIdOf = (eventId: string, message: OutgoingMessage): string =>
  message.id_suffix === undefined ? messageIdOfEvent(eventId) : `${messageIdOfEvent(eventId)}_${message.id_suffix}`;
