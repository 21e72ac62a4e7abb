import type { RequestedBotConfig } from '../../domain/bot/bot-config';
import type { Sealed } from '../../domain/codec-helpers';
import type { VcJoin } from '../../domain/bot/vc-join';
import type { VcConfig } from './bot-configs';
import type { CreateBotRequest } from './create-bot-request';

/** Seals a write-only value before it reaches a command (the SecretBox, in the service). */
export type Seal = (plain: string) => Sealed;

const sealed = (seal: Seal, value: string | null): Sealed | null => (value === null ? null : seal(value));

/** `vc_config` in the domain's terms: one OBF source at most (the request codec refused more), no SDK credentials (v2 stores them). */
const vcJoinOfV2 = (vc: VcConfig, seal: Seal): VcJoin => ({
  obf:
    vc.credential_id !== null
      ? { kind: 'credential', credential_id: vc.credential_id }
      : vc.credential_user_id !== null
        ? { kind: 'credential_user', vc_user_id: vc.credential_user_id }
        : vc.obf_token !== null
          ? { kind: 'token', token: seal(vc.obf_token) }
          : vc.obf_token_url !== null
            ? { kind: 'token_url', url: vc.obf_token_url }
            : null,
  zak_token_url: vc.zak_token_url,
  sdk: null,
});

/**
 * A validated v2 creation request in the domain's terms. An object counts only with its enable flag on
 * (`callback_config` kept with `callback_enabled: false` asks for nothing); tm_config / mt_config become the
 * bot's `login` (the request codec allows each only on its own platform).
 */
export const botConfigFromV2Request = (r: CreateBotRequest, seal: Seal): RequestedBotConfig => ({
  version: 1,
  api: 'v2',
  recording_mode: r.recording_mode,
  timeouts: { ...r.timeout_config },
  entry_message: r.entry_message,
  ignored_participant_names: [...r.ignored_participant_names],
  allow_multiple_bots: r.allow_multiple_bots,
  deduplication_key: null,
  bot_image:
    r.bot_image.length === 0
      ? null
      : { urls: [...r.bot_image], mode: r.bot_image_config?.mode ?? 'cycle', interval_seconds: r.bot_image_config?.interval_seconds ?? 10 },
  callback:
    r.callback_enabled && r.callback_config
      ? { url: r.callback_config.url, method: r.callback_config.method, secret: sealed(seal, r.callback_config.secret) }
      : null,
  webhook_url: null,
  streaming: r.streaming_enabled && r.streaming_config ? { ...r.streaming_config } : null,
  transcription:
    r.transcription_enabled && r.transcription_config
      ? { provider: r.transcription_config.provider, api_key: sealed(seal, r.transcription_config.api_key), custom_params: r.transcription_config.custom_params }
      : null,
  login: r.tm_config ?? r.mt_config,
  vc: r.vc_config && vcJoinOfV2(r.vc_config, seal),
});
