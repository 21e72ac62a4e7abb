import type { RequestedBotConfig } from '../../domain/bot/bot-config';
import { LEGACY_OBF_WAITING_ROOM_TIMEOUT, type ObfSource } from '../../domain/bot/vc-join';
import type { LegacyAudioFrequency, LegacyCreateBotRequest } from './legacy-create-bot-request';
import type { Seal } from './v2-bot-config';

const sealed = (seal: Seal, value: string | null) => (value === null ? null : seal(value));

/** `16khz` -> 16000: the bot config's frequency in Hz. */
export const hertzOf = (frequency: LegacyAudioFrequency): number => Number.parseInt(frequency, 10) * 1000;

/** Meeting BaaS's `streaming` is v2's streaming: a socket of each direction asked for, 16 kHz unless said. */
const streamingOf = (streaming: LegacyCreateBotRequest['streaming']): RequestedBotConfig['streaming'] => {
  if (streaming === null || (streaming.input === null && streaming.output === null)) return null;
  return { input_url: streaming.input, output_url: streaming.output, audio_frequency: hertzOf(streaming.audio_frequency ?? '16khz') };
};

/**
 * A validated legacy creation request in the domain's terms (`api: 'legacy'`: the bot's webhooks take the
 * legacy shape). Secrets (OBF token, SDK password, speech-to-text key) are sealed here. `start_time` is not
 * in the config: it makes the bot a scheduled one (its join_at); `reserved` has no effect (as upstream).
 */
export const botConfigFromLegacyRequest = (r: LegacyCreateBotRequest, seal: Seal): RequestedBotConfig => {
  // one OBF source at most: the request codec refused more
  const obf: ObfSource | null =
    r.vc_obf_token_user_id !== null
      ? { kind: 'credential_user', vc_user_id: r.vc_obf_token_user_id }
      : r.vc_obf_token !== null
        ? { kind: 'token', token: seal(r.vc_obf_token) }
        : r.vc_obf_token_url !== null
          ? { kind: 'token_url', url: r.vc_obf_token_url }
          : null;
  const sdk = r.vc_sdk_id !== null && r.vc_sdk_pwd !== null ? { sdk_id: r.vc_sdk_id, sdk_secret: seal(r.vc_sdk_pwd) } : null;
  return {
    version: 1,
    api: 'legacy',
    recording_mode: r.recording_mode,
    timeouts: {
      grace_period: 0,
      no_one_joined_timeout: r.automatic_leave.noone_joined_timeout,
      silence_timeout: r.automatic_leave.silence_timeout,
      waiting_room_timeout: r.automatic_leave.waiting_room_timeout ?? (obf !== null ? LEGACY_OBF_WAITING_ROOM_TIMEOUT : 600),
      max_recording_duration: null,
    },
    entry_message: r.entry_message,
    ignored_participant_names: [],
    allow_multiple_bots: true,
    deduplication_key: r.deduplication_key,
    bot_image: r.bot_image === null ? null : { urls: [r.bot_image], mode: 'cycle', interval_seconds: 10 },
    callback: null,
    webhook_url: r.webhook_url,
    streaming: streamingOf(r.streaming),
    transcription: r.speech_to_text && {
      provider: r.speech_to_text.provider,
      api_key: sealed(seal, r.speech_to_text.api_key),
      custom_params: r.transcription_custom_parameters,
    },
    login: null,
    vc: obf !== null || sdk !== null || r.vc_access_token_url !== null ? { obf, zak_token_url: r.vc_access_token_url, sdk } : null,
  };
};
