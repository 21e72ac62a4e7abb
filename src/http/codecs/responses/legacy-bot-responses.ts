import * as t from 'io-ts';
import { legacyEndReasons } from '../../../domain/bot/legacy-end-reasons';
import { RECORDING_MODES } from '../bot-configs';
import { DataDeletion } from './v2-bot-responses';
import { anyObject, dateTime, integer, nullable, text, uri, uuid } from './response-kit';

/** Why a legacy bot's recording ended (domain/bot/legacy-end-reasons.ts). */
export const LegacyEndReason = t.keyof(Object.fromEntries(legacyEndReasons.map((r) => [r, null])) as Record<(typeof legacyEndReasons)[number], null>);

const RecordingMode = t.keyof(Object.fromEntries(RECORDING_MODES.map((m) => [m, null])) as Record<(typeof RECORDING_MODES)[number], null>);

export const LegacyBotCreated = t.type({ bot_id: uuid });

export const LegacyOk = t.type({ ok: t.literal(true) });

/** POST /bots/{id}/delete_data: the deletion's outcome, as the v2 route says it. */
export const LegacyDataDeletion = t.type({ ok: t.literal(true), status: DataDeletion });

export const LegacyRetranscribeAccepted = t.type({ ok: t.literal(true), bot_id: uuid });

export const LegacyListItem = t.type({
  access_count: integer({ minimum: 0 }),
  bot_name: t.string,
  created_at: dateTime,
  duration: nullable(integer({ minimum: 0 })),
  ended_at: nullable(dateTime),
  extra: anyObject,
  id: integer({ minimum: 1 }),
  last_accessed_at: nullable(dateTime),
  meeting_url: t.string,
  session_id: nullable(t.string),
  speakers: t.readonlyArray(t.string),
  uuid,
});
export type LegacyListItem = t.TypeOf<typeof LegacyListItem>;

/** GET /bots/{id}/screenshots: `date` when the screenshot was stored, `url` signed for 2 hours. */
export const LegacyScreenshots = t.readonlyArray(t.type({ date: dateTime, url: uri }));

export const BotsWithMetadata = t.type({ bots: t.readonlyArray(LegacyListItem), last_updated: dateTime, next_cursor: nullable(t.string) });

const Word = t.type({ bot_id: integer(), end_time: t.number, id: integer(), start_time: t.number, text: t.string, user_id: nullable(integer()) });

export const LegacyTranscript = t.type({
  bot_id: integer(),
  end_time: t.number,
  id: integer(),
  lang: t.string,
  speaker: t.string,
  start_time: t.number,
  user_id: nullable(integer()),
  words: t.readonlyArray(Word),
});

/**
 * `bot_data.bot`, with the official client's types: `""` and `{}` where the bot has none of a text or an
 * object, null where the client allows null.
 */
const LegacyBotRecord = t.type({
  account_id: integer({ minimum: 0, description: "The team as a number: the first 48 bits of its id, the same at every read." }),
  bot_exited_at: nullable(dateTime),
  bot_image: nullable(t.string),
  bot_joined_at: nullable(dateTime),
  bot_name: t.string,
  bot_param_id: integer({ minimum: 1, description: "The bot's own parameters: the bot's legacy `id`." }),
  created_at: dateTime,
  deduplication_key: nullable(t.string),
  diarization_fails: integer(),
  diarization_v2: t.boolean,
  end_reason: nullable(LegacyEndReason),
  ended_at: nullable(dateTime),
  enter_message: nullable(t.string),
  errors: nullable(text({ description: 'A failed bot: the JSON text of `[{error, error_code, message}]`; else null.' })),
  event_id: t.null,
  extra: anyObject,
  id: integer({ minimum: 1 }),
  is_stopped: t.boolean,
  meeting_url: t.string,
  mp4_s3_path: text({ description: 'The recording\'s key in its storage; `""` without a recording.' }),
  noone_joined_timeout: integer({ minimum: 0 }),
  recording_mode: RecordingMode,
  reserved: t.boolean,
  scheduled_bot_id: t.null,
  session_id: nullable(t.string),
  silence_timeout: integer({ minimum: 0 }),
  speech_to_text_api_key: t.null,
  speech_to_text_provider: nullable(t.string),
  streaming_audio_frequency: nullable(t.string),
  streaming_input: nullable(t.string),
  streaming_output: nullable(t.string),
  transcription_custom_parameters: anyObject,
  transcription_fails: integer(),
  transcription_payloads: t.null,
  user_reported_error: t.null,
  uuid,
  waiting_room_timeout: integer({ minimum: 0 }),
  webhook_url: text({ description: '`""` when none was given.' }),
  vc_access_token_url: nullable(t.string),
  vc_obf_token: t.null,
  vc_obf_token_url: nullable(t.string),
  vc_obf_token_user_id: nullable(t.string),
  vc_sdk_id: nullable(t.string),
  vc_sdk_pwd: t.null,
  data_deleted_at: nullable(dateTime),
});

/** A link signed for 2 hours, or `""` when the bot has no such file (the official client's type: a string). */
const linkOrEmpty = t.union([uri, t.literal('')]);

export const MeetingData = t.type({
  audio: linkOrEmpty,
  mp4: linkOrEmpty,
  duration: integer({ minimum: 0, description: 'Seconds; 0 until the bot has ended.' }),
  meeting_participants_file: linkOrEmpty,
  speaker_diarization_file: t.literal(''),
  speaker_diarization_file_network: t.literal(''),
  bot_data: t.type({ bot: LegacyBotRecord, event_uuid: t.null, transcripts: t.readonlyArray(LegacyTranscript) }),
});
export type MeetingData = t.TypeOf<typeof MeetingData>;
