import { INITIAL_TRANSCRIPTION, type BotEvent } from '../bot/bot-events';
import { legacyEndReason } from '../bot/legacy-end-reasons';
import { legacyErrorString } from '../bot/legacy-error-strings';
import { artifactLink, legacyTranscript } from './artifact-link';
import { TRANSCRIPTION } from '../transcription/transcript-artifacts';
import type { BotWebhookFacts, OutgoingMessage } from './bot-webhook-messages';

/** The statuses a running bot reports, which the legacy API sends under the same names. */
const liveStatuses: ReadonlySet<string> = new Set([
  'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed',
]);

type EndStatus = 'bot_rejected' | 'bot_removed' | 'waiting_room_timeout' | 'invalid_meeting_url' | 'meeting_error';

const endStatusByCode: Readonly<Record<string, EndStatus | null>> = {
  BOT_NOT_ACCEPTED: 'bot_rejected',
  RECORDING_RIGHTS_NOT_GRANTED: 'bot_rejected',
  CANNOT_REQUEST_RECORDING_RIGHT: 'bot_rejected',
  HOST_CLIENT_CANNOT_GRANT_PERMISSION: 'bot_rejected',
  BOT_REMOVED: 'bot_removed',
  BOT_REMOVED_TOO_EARLY: 'bot_removed',
  TIMEOUT_WAITING_TO_START: 'waiting_room_timeout',
  WAITING_FOR_HOST_TIMEOUT: 'waiting_room_timeout',
  WAITING_FOR_AUTHORIZED_USER_TIMEOUT: 'waiting_room_timeout',
  INVALID_MEETING_URL: 'invalid_meeting_url',
  // Ends that are not errors: the bot left the call, which call_ended says.
  API_REQUEST: null,
  NO_ATTENDEES: null,
  NO_SPEAKER: null,
  RECORDING_TIMEOUT: null,
  EXITING_MEETING_BEFORE_RECORD: null,
};

/** The live code that says why a bot ended (any other failure is a meeting_error); null for a plain end. */
export const legacyEndStatus = (endCode: string): EndStatus | null => (endCode in endStatusByCode ? endStatusByCode[endCode]! : 'meeting_error');

const statusChange = (facts: BotWebhookFacts, status: Record<string, unknown>, idSuffix?: string): OutgoingMessage => ({
  event_type: 'bot.status_change',
  payload: { event: 'bot.status_change', data: { bot_id: facts.bot_id, status } },
  ...(idSuffix === undefined ? {} : { id_suffix: idSuffix }),
});

/**
 * The status sent just before a bot's final event: why it ended, or `call_ended` for a plain end the bot
 * did not report leaving (removed through the API before it joined, a lost report), since the spec says
 * a removal sends `call_ended` and then the final data. None when the bot's own call_ended said it.
 */
const endStatusMessage = (facts: BotWebhookFacts, endCode: string, errorMessage: string, at: string): OutgoingMessage[] => {
  const status = legacyEndStatus(endCode);
  if (status === 'meeting_error') return [statusChange(facts, { code: status, created_at: at, error_message: errorMessage, error_type: endCode }, 'status')];
  if (status !== null) return [statusChange(facts, { code: status, created_at: at }, 'status')];
  return facts.call_ended ? [] : [statusChange(facts, { code: 'call_ended', created_at: at }, 'status')];
};

/** The recording a legacy `complete` links (minted when sent, valid 2 hours); null when nothing was recorded. */
const recordingLink = (facts: BotWebhookFacts) => {
  const recording = [...facts.artifacts].reverse().find((a) => a.artifact_type === 'recording');
  return recording === undefined ? null : artifactLink(recording.key, 'url');
};

/** The end status and `complete`, with the transcript when one was made. */
const completeMessages = (facts: BotWebhookFacts, transcribed: boolean): OutgoingMessage[] => {
  if (facts.outcome?.status !== 'completed') return [];
  const { end_reason, at } = facts.outcome;
  const data = {
    bot_id: facts.bot_id,
    mp4: recordingLink(facts),
    speakers: facts.speakers,
    end_reason: legacyEndReason(end_reason, facts.leave_requested),
    ...(transcribed ? { transcript: legacyTranscript(TRANSCRIPTION.key) } : {}),
  };
  return [...endStatusMessage(facts, end_reason, '', at), { event_type: 'complete', payload: { event: 'complete', data } }];
};

/**
 * The spec's legacy webhook events for one event of a bot created through the legacy API:
 * `bot.status_change` with the live codes (`start_time` on in_call_recording; `call_ended`; the end
 * statuses, `meeting_error` with `error_message` and `error_type`), then `complete` or `failed`.
 * A bot with `speech_to_text` sends `complete` when its first transcription ends, with `transcript` (read
 * from the transcript artifact when sent; absent when the transcription failed); a re-transcribe ends with
 * `transcription_complete` `{bot_id}` (Meeting BaaS's v1 event) or `transcription_failed` `{bot_id, error}`.
 */
export const legacyBotMessages = (facts: BotWebhookFacts, event: BotEvent): readonly OutgoingMessage[] => {
  switch (event.type) {
    case 'StatusChanged': {
      const { status, at } = event.data;
      if (!liveStatuses.has(status)) return [];
      return [statusChange(facts, { code: status, created_at: at, ...(status === 'in_call_recording' ? { start_time: at } : {}) })];
    }
    case 'CallEnded':
      return [statusChange(facts, { code: 'call_ended', created_at: event.data.at })];
    case 'BotCompleted':
      return facts.config.transcription === null ? completeMessages(facts, false) : [];
    case 'TranscriptionCompleted':
    case 'TranscriptionFailed': {
      const transcribed = event.type === 'TranscriptionCompleted';
      if (event.data.request_id === INITIAL_TRANSCRIPTION) return completeMessages(facts, transcribed);
      const data = transcribed ? { bot_id: facts.bot_id } : { bot_id: facts.bot_id, error: event.data.error_message };
      const name = transcribed ? 'transcription_complete' : 'transcription_failed';
      return [{ event_type: name, payload: { event: name, data } }];
    }
    case 'BotFailed': {
      const { error_code, error_message, at } = event.data;
      const data = { bot_id: facts.bot_id, error: legacyErrorString(error_code) };
      return [...endStatusMessage(facts, error_code, error_message, at), { event_type: 'failed', payload: { event: 'failed', data } }];
    }
    default:
      return [];
  }
};
