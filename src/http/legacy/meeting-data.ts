import { diarizedTranscriptIn, legacyMeetingTranscripts } from '../../domain/transcription/legacy-transcripts';
import { legacyEndReason } from '../../domain/bot/legacy-end-reasons';
import { legacyErrorString } from '../../domain/bot/legacy-error-strings';
import type { LegacyBotView } from '../../projections/legacy-bot-view';
import type { ArtifactLinks } from '../v2/bot-details';
import type { MeetingData } from '../codecs/responses/legacy-bot-responses';

/** One transcript segment of the legacy shape (legacy-transcripts.ts). */
export interface LegacyTranscript {
  readonly bot_id: number;
  readonly end_time: number;
  readonly id: number;
  readonly lang: string;
  readonly speaker: string;
  readonly start_time: number;
  readonly user_id: number | null;
  readonly words: readonly { readonly bot_id: number; readonly end_time: number; readonly id: number; readonly start_time: number; readonly text: string; readonly user_id: number | null }[];
}


/**
 * The team as a number, which the official client's type wants: the first 48 bits of its UUID (random in a
 * v4 UUID, so distinct teams do not share one in practice), the same at every read and after a rebuild.
 */
export const accountNumberOf = (teamId: string): number => Number.parseInt(teamId.replace(/-/g, '').slice(0, 12), 16);

/**
 * The bot record of `meeting_data` (`bot_data.bot`), every field the spec lists, with the types the
 * official client declares: a number, a string or an object where it wants one (`""` and `{}` where the bot
 * has none), null where it allows null. Secrets the request carried (OBF token, SDK password, speech-to-text
 * key) are write-only: null.
 */
const botRecord = (bot: LegacyBotView) => {
  const s = bot.settings;
  return {
    account_id: accountNumberOf(bot.team_id),
    bot_exited_at: bot.exited_at,
    bot_image: s.bot_image,
    bot_joined_at: bot.joined_at,
    bot_name: bot.bot_name,
    // the bot's own parameters: the bot itself (its legacy id)
    bot_param_id: bot.legacy_id,
    created_at: bot.created_at,
    deduplication_key: s.deduplication_key,
    diarization_fails: 0,
    diarization_v2: false,
    /** the spec's legacy recording end reason (not in its list of this record's fields: docs/decisions.md) */
    end_reason: bot.end_code === null ? null : legacyEndReason(bot.end_code, bot.stopped),
    ended_at: bot.ended_at,
    enter_message: s.entry_message,
    // a text (the client's type): the JSON of [{error, error_code, message}]
    errors:
      bot.status === 'failed' && bot.end_code !== null
        ? JSON.stringify([{ error: legacyErrorString(bot.end_code), error_code: bot.end_code, message: bot.error_message }])
        : null,
    event_id: null,
    extra: bot.extra ?? {},
    id: bot.legacy_id,
    is_stopped: bot.stopped,
    meeting_url: bot.meeting_url,
    mp4_s3_path: bot.recording?.key ?? '',
    noone_joined_timeout: s.noone_joined_timeout,
    recording_mode: s.recording_mode,
    reserved: false,
    scheduled_bot_id: null,
    session_id: bot.session_id,
    silence_timeout: s.silence_timeout,
    speech_to_text_api_key: null,
    speech_to_text_provider: s.speech_to_text_provider,
    streaming_audio_frequency: s.streaming_audio_frequency,
    streaming_input: s.streaming_input,
    streaming_output: s.streaming_output,
    transcription_custom_parameters: s.transcription_custom_parameters ?? {},
    transcription_fails: 0,
    transcription_payloads: null,
    user_reported_error: null,
    uuid: bot.id,
    waiting_room_timeout: s.waiting_room_timeout,
    webhook_url: s.webhook_url ?? '',
    vc_access_token_url: s.vc_access_token_url,
    vc_obf_token: null,
    vc_obf_token_url: s.vc_obf_token_url,
    vc_obf_token_user_id: s.vc_obf_token_user_id,
    vc_sdk_id: s.vc_sdk_id,
    vc_sdk_pwd: null,
    /** beyond the spec: when the team deleted the bot's data (null: it did not) */
    data_deleted_at: bot.data_deleted_at ?? null,
  };
};

/**
 * `GET /bots/meeting_data`: links are signed for 2 hours from this read. `mp4` is the recording whatever
 * its format (an MP3 for audio_only, as the spec's recording_mode says); `audio` is that same file when the
 * recording is audio only. A file the bot does not have is `""` (the official client's type: a string, empty
 * when there is no file); `duration` is 0 until the bot ends.
 */
export const toMeetingData = async (bot: LegacyBotView, links: ArtifactLinks, options: { readonly includeTranscripts: boolean }): Promise<MeetingData> => {
  const keys = [bot.recording?.key ?? null, bot.participants_file].filter((key): key is string => key !== null);
  const minted = keys.length === 0 ? new Map() : await links.linksFor(bot.id, keys);
  const link = (key: string | null): string => (key === null ? '' : (minted.get(key)?.url ?? ''));
  const recording = link(bot.recording?.key ?? null);
  const diarized = options.includeTranscripts && bot.transcript_file ? diarizedTranscriptIn(await links.contentOf(bot.id, bot.transcript_file)) : null;
  const transcripts: LegacyTranscript[] = diarized === null ? [] : legacyMeetingTranscripts(diarized, bot.legacy_id);
  return {
    audio: bot.recording?.content_type.startsWith('audio/') ? recording : '',
    mp4: recording,
    duration: bot.duration ?? 0,
    meeting_participants_file: link(bot.participants_file),
    speaker_diarization_file: '',
    speaker_diarization_file_network: '',
    bot_data: {
      bot: botRecord(bot),
      event_uuid: null,
      transcripts: options.includeTranscripts ? transcripts : [],
    },
  };
};
