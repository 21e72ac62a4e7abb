import * as t from 'io-ts';
import { eventCodec, IsoInstant, nullableField, Sealed, withDecodeDefault } from '../codec-helpers';
import { BotConfigCodec, RequestedBotConfigCodec } from './bot-config';

const Status = t.keyof({
  queued: null, joining_call: null, in_waiting_room: null, in_call_not_recording: null,
  in_call_recording: null, recording_paused: null, recording_resumed: null, completed: null, failed: null,
});
const Platform = t.keyof({ vc: null, tm: null, mt: null });

/**
 * The API key that created the bot, sealed: webhook deliveries carry it in `x-service-api-key` so that the
 * receiver knows they come from us (DESIGN.md). Kept for that only; never returned or logged.
 */
export const CreatedBy = t.type({ key_id: t.string, api_key: Sealed });
export type CreatedBy = t.TypeOf<typeof CreatedBy>;

/** What a bot is asked to do, in the domain's own terms (BotConfig), wherever its events carry it. */
const botDefinition = {
  meeting_url: t.string,
  platform: Platform,
  bot_name: t.string,
  extra: t.union([t.UnknownRecord, t.null]),
  config: BotConfigCodec,
};

/** What the team asked for: the bot's audit replays it. */
export const BotCreated = eventCodec('BotCreated', {
  bot_id: t.string,
  team_id: t.string,
  ...botDefinition,
  created_by: nullableField(CreatedBy),
  created_at: IsoInstant,
});

/**
 * A bot for later (POST /v2/bots/scheduled): what was asked (the config without the team's storage and
 * retention, fixed when it is queued) and its time. It reserves nothing and counts towards no cap: at its
 * time the scheduler queues it like a new bot, and only then does its stream get its BotCreated ("reserved
 * and queued now", for every bot alike).
 */
export const BotScheduled = eventCodec('BotScheduled', {
  bot_id: t.string,
  team_id: t.string,
  ...botDefinition,
  config: RequestedBotConfigCodec,
  created_by: nullableField(CreatedBy),
  join_at: IsoInstant,
  at: IsoInstant,
});

/**
 * A scheduled bot changed before its time (PATCH): its whole new definition and time, and the key that
 * made this change. The bot acts for that key from then on (its webhooks carry it): the key that defined
 * what the bot now is, never the one that first scheduled it (a Sending Access key that redefines a bot
 * must not make its callback carry a Full Access key). Absent in events recorded before it was kept: the
 * bot then acts for no key.
 */
export const BotScheduleChanged = eventCodec('BotScheduleChanged', {
  bot_id: t.string,
  ...botDefinition,
  config: RequestedBotConfigCodec,
  created_by: nullableField(CreatedBy),
  join_at: IsoInstant,
  at: IsoInstant,
});

/**
 * A service instance took the bot to run it. `run_id` names this run: the bot's token is bound to it, so
 * that no token of another run passes for this one (absent from events written before runs were named).
 */
export const BotDispatched = t.type({
  type: t.literal('BotDispatched'),
  data: t.intersection([t.type({ bot_id: t.string, worker_id: t.string, at: IsoInstant }), t.partial({ run_id: t.string })]),
});

/**
 * A running bot whose service instance is gone is taken over by another instance, which watches it from
 * then on (its process may live on and reach the new instance, or be gone with the old one).
 */
export const BotReassigned = eventCodec('BotReassigned', { bot_id: t.string, from_worker_id: t.string, worker_id: t.string, at: IsoInstant });

export const StatusChanged = eventCodec('StatusChanged', { bot_id: t.string, status: Status, at: IsoInstant });

/** The legacy `call_ended` live code: kept in the audit, not a v2 status. */
export const CallEnded = eventCodec('CallEnded', { bot_id: t.string, at: IsoInstant });

export const BotLeaveRequested = eventCodec('BotLeaveRequested', { bot_id: t.string, at: IsoInstant });

export const ChatMessageSent = eventCodec('ChatMessageSent', {
  bot_id: t.string,
  message_id: t.string,
  message: t.string,
  at: IsoInstant,
});

/**
 * A chat message a team asked a running bot to post: whichever api instance holds the bot's control poll
 * hands it over, and the bot's answer is recorded (ChatMessageSent or ChatMessageFailed with this id).
 */
export const ChatMessageRequested = eventCodec('ChatMessageRequested', { bot_id: t.string, request_id: t.string, message: t.string, at: IsoInstant });

export const ChatFailure = t.keyof({ chat_disabled: null, not_in_call: null, failed: null, unreachable: null });
export type ChatFailure = t.TypeOf<typeof ChatFailure>;

/** The bot could not post it (its answer), or it did not answer in time (`unreachable`, recorded by the API). */
export const ChatMessageFailed = eventCodec('ChatMessageFailed', {
  bot_id: t.string,
  request_id: t.string,
  reason: ChatFailure,
  message: t.string,
  at: IsoInstant,
});

/** The bot answered the standing leave: polls stop handing it over. */
export const BotLeaveAcknowledged = eventCodec('BotLeaveAcknowledged', { bot_id: t.string, at: IsoInstant });

export const ArtifactStored = eventCodec('ArtifactStored', {
  bot_id: t.string,
  artifact_type: t.string,
  key: t.string,
  content_type: t.string,
  size_bytes: t.number,
  at: IsoInstant,
});

/**
 * The bot could not store an artifact in its team's bucket and the team allows transient spill: the
 * service holds a copy (its own store, same key) until an upload to the bucket succeeds (ArtifactStored).
 */
export const ArtifactSpilled = eventCodec('ArtifactSpilled', {
  bot_id: t.string,
  artifact_type: t.string,
  key: t.string,
  content_type: t.string,
  size_bytes: t.number,
  reason: t.string,
  at: IsoInstant,
});

/** The artifact could not be stored after retries and nothing holds a copy: it is lost, and the bot's list says so. */
export const ArtifactUploadFailed = eventCodec('ArtifactUploadFailed', {
  bot_id: t.string,
  artifact_type: t.string,
  key: t.string,
  content_type: t.string,
  reason: t.string,
  at: IsoInstant,
});

/** The retention period ended: these artifacts were deleted from wherever they were. */
export const ArtifactsExpired = eventCodec('ArtifactsExpired', { bot_id: t.string, keys: t.array(t.string), at: IsoInstant });

/**
 * Who was in the meeting and who spoke, as the bot saw it (names; the bot itself not included), reported
 * once at the end: webhooks and the legacy views list them.
 */
export const ParticipantsReported = eventCodec('ParticipantsReported', {
  bot_id: t.string,
  participants: t.array(t.string),
  speakers: t.array(t.string),
  at: IsoInstant,
});

/**
 * The bot's data was read through the legacy `meeting_data` endpoint by one key: `reads` reads, the last
 * at `at` (reads are coalesced, at most one event per bot and key a minute: docs/decisions.md). The legacy
 * list counts them (`access_count`, `last_accessed_at`); the audit shows who read. Older events: one read.
 */
export const BotDataAccessed = eventCodec('BotDataAccessed', {
  bot_id: t.string,
  key_id: t.string,
  reads: withDecodeDefault(t.number, () => 1),
  at: IsoInstant,
});

/** Seconds each streaming direction was connected while the bot recorded (the bot measures them). */
const StreamingSeconds = t.type({ input: t.number, output: t.number });

/**
 * What a bot used, as its end report says: charging reads only this. No `streaming_seconds`: nothing
 * streamed. `permission_wait_seconds`: how long a vc bot waited for the recording permission (absent from
 * the ends of bots before it was reported, and of bots that never asked).
 */
const Usage = t.intersection([
  t.type({ recorded_seconds: t.number, waiting_room_seconds: t.number }),
  t.partial({ streaming_seconds: StreamingSeconds, permission_wait_seconds: t.number }),
]);

export const BotCompleted = eventCodec('BotCompleted', {
  bot_id: t.string,
  end_reason: t.string,
  usage: Usage,
  at: IsoInstant,
});

export const BotFailed = eventCodec('BotFailed', {
  bot_id: t.string,
  error_code: t.string,
  error_message: t.string,
  usage: Usage,
  at: IsoInstant,
});

/**
 * A transcription of the bot's recording is asked for: the first one when a bot with transcription ends
 * completed (`request_id` INITIAL_TRANSCRIPTION), or a re-transcribe (the team's override of provider and
 * key, sealed). Its end is TranscriptionCompleted or TranscriptionFailed with the same request id.
 */
export const TranscriptionRequested = eventCodec('TranscriptionRequested', {
  bot_id: t.string,
  request_id: t.string,
  provider: t.string,
  api_key: t.union([Sealed, t.null]),
  custom_params: t.union([t.UnknownRecord, t.null]),
  retranscribe: t.boolean,
  at: IsoInstant,
});

/**
 * A hosted provider accepted the request's job (`job_id`: the provider's own id), recorded before the
 * transcriber waits for it, so that whoever carries the request on after its owner died (a standby taking
 * the lease over, the service after a restart) waits for this job instead of asking for a second one.
 */
export const TranscriptionJobSubmitted = eventCodec('TranscriptionJobSubmitted', {
  bot_id: t.string,
  request_id: t.string,
  provider: t.string,
  job_id: t.string,
  at: IsoInstant,
});

/** The transcript artifacts are stored (ArtifactStored, just before this event); `utterances`: how many. */
export const TranscriptionCompleted = eventCodec('TranscriptionCompleted', {
  bot_id: t.string,
  request_id: t.string,
  provider: t.string,
  keys: t.array(t.string),
  utterances: t.number,
  at: IsoInstant,
});

/** No transcript came out (`error_code` TRANSCRIPTION_FAILED); the bot itself stays completed. */
export const TranscriptionFailed = eventCodec('TranscriptionFailed', {
  bot_id: t.string,
  request_id: t.string,
  provider: t.string,
  error_code: t.string,
  error_message: t.string,
  at: IsoInstant,
});

/**
 * The team asked for the bot's data to be deleted (by the key `key_id`): from now on its personal fields
 * read as placeholders everywhere (their data key is destroyed), and its artifacts are erased from every
 * store (BotArtifactsErased says when that is done). The bot's statuses, times, usage and charges stay.
 */
export const BotDataDeleted = eventCodec('BotDataDeleted', { bot_id: t.string, key_id: t.string, at: IsoInstant });

/**
 * Every object of the bot is gone from every store that held it (its recording, audio chunks, transcripts,
 * screenshots, chat, participants, logs, and copies the service held): `keys` are the artifacts it knew of.
 */
export const BotArtifactsErased = eventCodec('BotArtifactsErased', { bot_id: t.string, keys: t.array(t.string), at: IsoInstant });

export const BotEvent = t.union([
  BotCreated, BotScheduled, BotScheduleChanged, BotDispatched, BotReassigned, StatusChanged, CallEnded, BotLeaveRequested,
  ChatMessageSent, ArtifactStored, ParticipantsReported, BotCompleted, BotFailed, ArtifactSpilled, ArtifactUploadFailed,
  ArtifactsExpired, BotDataAccessed, TranscriptionRequested, TranscriptionJobSubmitted, TranscriptionCompleted, TranscriptionFailed, BotDataDeleted, BotArtifactsErased,
  ChatMessageRequested, ChatMessageFailed, BotLeaveAcknowledged,
]);
export type BotEvent = t.TypeOf<typeof BotEvent>;
export type BotCreatedEvent = t.TypeOf<typeof BotCreated>;
export type BotScheduledEvent = t.TypeOf<typeof BotScheduled>;
export type Usage = t.TypeOf<typeof Usage>;

/** The request id of the transcription asked for when a bot with transcription ends completed. */
export const INITIAL_TRANSCRIPTION = 'initial';

export const botStreamName = (botId: string): string => `bot-${botId}`;

const botEventTypes: ReadonlySet<string> = new Set(BotEvent.types.map((codec) => codec.props.type.value));

export const isBotEvent = (event: { readonly type: string }): event is BotEvent => botEventTypes.has(event.type);
