import type { BotConfig } from '../bot/bot-config';
import type { BotEvent, CreatedBy } from '../bot/bot-events';
import { artifactLink } from './artifact-link';

/** A message to send: its kind and its body (`{event, data}`), with artifact links as placeholders. */
export interface OutgoingMessage {
  readonly event_type: string;
  readonly payload: Record<string, unknown>;
}

interface ArtifactFact {
  readonly artifact_type: string;
  readonly key: string;
  readonly size_bytes: number;
}

/** What a bot's webhooks say about it, folded from its events up to the one being sent. */
export interface BotFacts {
  readonly bot_id: string;
  readonly team_id: string;
  readonly extra: Record<string, unknown> | null;
  readonly config: BotConfig;
  readonly created_by: CreatedBy | null;
  readonly joined_at: string | null;
  readonly artifacts: readonly ArtifactFact[];
  readonly participants: readonly string[];
  readonly speakers: readonly string[];
}

/**
 * Audio chunks and screenshots are many (one every few seconds) and are listed by GET /v2/bots/{id}; the
 * final event links what a team acts on (recording, chat, participants, log, transcripts), so that it stays
 * small (Standard Webhooks recommends well under 20 kB).
 */
const listedInFinalEvent = (artifactType: string): boolean => artifactType !== 'audio_chunk' && artifactType !== 'screenshot';

const admittedStatuses: readonly string[] = ['in_call_not_recording', 'in_call_recording'];

export const foldBotFacts = (events: readonly BotEvent[]): BotFacts | null => {
  let facts: BotFacts | null = null;
  for (const event of events) {
    if (event.type === 'BotCreated') {
      const { bot_id, team_id, extra, config, created_by } = event.data;
      facts = { bot_id, team_id, extra, config, created_by, joined_at: null, artifacts: [], participants: [], speakers: [] };
      continue;
    }
    if (facts === null) continue;
    if (event.type === 'StatusChanged' && facts.joined_at === null && admittedStatuses.includes(event.data.status)) {
      facts = { ...facts, joined_at: event.data.at };
    } else if (event.type === 'ArtifactStored') {
      const { artifact_type, key, size_bytes } = event.data;
      facts = { ...facts, artifacts: [...facts.artifacts, { artifact_type, key, size_bytes }] };
    } else if (event.type === 'ParticipantsReported') {
      facts = { ...facts, participants: event.data.participants, speakers: event.data.speakers };
    }
  }
  return facts;
};

/** The v2 events of DESIGN.md for one bot event; most bot events send nothing. */
export const v2BotMessages = (facts: BotFacts, event: BotEvent): readonly OutgoingMessage[] => {
  const base = { bot_id: facts.bot_id, extra: facts.extra };
  switch (event.type) {
    case 'StatusChanged': {
      const { status, at } = event.data;
      const code = { code: status, created_at: at, ...(status === 'in_call_recording' ? { start_time: at } : {}) };
      return [{ event_type: 'bot.status_change', payload: { event: 'bot.status_change', data: { ...base, status: code } } }];
    }
    case 'BotCompleted': {
      const data = {
        ...base,
        status: { code: 'completed', created_at: event.data.at },
        error_code: event.data.end_reason,
        duration_seconds: event.data.usage.recorded_seconds,
        joined_at: facts.joined_at,
        exited_at: event.data.at,
        participants: facts.participants,
        speakers: facts.speakers,
        artifacts: facts.artifacts
          .filter((a) => listedInFinalEvent(a.artifact_type))
          .map((a) => ({ artifact_type: a.artifact_type, url: artifactLink(a.key, 'url'), url_expires_at: artifactLink(a.key, 'expires_at'), size_bytes: a.size_bytes })),
      };
      return [{ event_type: 'bot.completed', payload: { event: 'bot.completed', data } }];
    }
    case 'BotFailed': {
      const data = { ...base, error_code: event.data.error_code, error_message: event.data.error_message };
      return [{ event_type: 'bot.failed', payload: { event: 'bot.failed', data } }];
    }
    default:
      return [];
  }
};

/** The messages of a bot event, in the shape of the API that created the bot. */
export const botMessages = (facts: BotFacts, event: BotEvent): readonly OutgoingMessage[] => (facts.config.api === 'v2' ? v2BotMessages(facts, event) : []);

/**
 * One Standard Webhooks `webhook-id` per event that caused a message: the same for every target and every
 * attempt, and the same again when the event is seen again (its id in the log is stable).
 */
export const messageIdOfEvent = (eventId: string): string => `msg_${eventId.replace(/-/g, '')}`;
