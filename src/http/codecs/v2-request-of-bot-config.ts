import type { RequestedBotConfig } from '../../domain/bot/bot-config';
import type { BotDefinition } from '../../domain/bot/bot-decider';
import type { VcJoin } from '../../domain/bot/vc-join';

/** The `vc_config` a stored vc part answers to, without its secret (the token given in the request). */
const v2VcConfigOf = (vc: VcJoin): Record<string, unknown> => ({
  credential_id: vc.obf?.kind === 'credential' ? vc.obf.credential_id : null,
  credential_user_id: vc.obf?.kind === 'credential_user' ? vc.obf.vc_user_id : null,
  obf_token_url: vc.obf?.kind === 'token_url' ? vc.obf.url : null,
  zak_token_url: vc.zak_token_url,
});

/**
 * The v2 creation request a stored definition answers to: what a PATCH of a scheduled bot is merged into
 * before the whole is decoded again like a new request. The inverse of botConfigFromV2Request, except for
 * secrets (sealed in the config, never unsealed here): they are left out, and keepStoredSecrets puts the
 * stored ones back where the patch did not replace their object.
 */
export const v2RequestOf = (definition: BotDefinition): Record<string, unknown> => {
  const { config, platform } = definition;
  return {
    meeting_url: definition.meeting_url,
    bot_name: definition.bot_name,
    allow_multiple_bots: config.allow_multiple_bots,
    bot_image: config.bot_image === null ? null : [...config.bot_image.urls],
    bot_image_config: config.bot_image === null ? null : { mode: config.bot_image.mode, interval_seconds: config.bot_image.interval_seconds },
    callback_enabled: config.callback !== null,
    callback_config: config.callback === null ? null : { url: config.callback.url, method: config.callback.method },
    entry_message: config.entry_message,
    extra: definition.extra,
    ignored_participant_names: [...config.ignored_participant_names],
    mt_config: platform === 'mt' && config.login ? { ...config.login } : null,
    tm_config: platform === 'tm' && config.login ? { ...config.login } : null,
    timeout_config: { ...config.timeouts },
    recording_mode: config.recording_mode,
    streaming_enabled: config.streaming !== null,
    streaming_config: config.streaming === null ? null : { ...config.streaming },
    transcription_enabled: config.transcription !== null,
    transcription_config:
      config.transcription === null ? null : { provider: config.transcription.provider, custom_params: config.transcription.custom_params },
    vc_config: config.vc === null ? null : v2VcConfigOf(config.vc),
  };
};

/**
 * The stored sealed secrets of the objects a patch did not name: the merged request carried them without
 * their secret (v2RequestOf), so the decoded config has none, and the stored one is still the caller's.
 */
export const keepStoredSecrets = (config: RequestedBotConfig, stored: RequestedBotConfig, named: ReadonlySet<string>): RequestedBotConfig => ({
  ...config,
  callback:
    config.callback && stored.callback && !named.has('callback_config') ? { ...config.callback, secret: stored.callback.secret } : config.callback,
  transcription:
    config.transcription && stored.transcription && !named.has('transcription_config')
      ? { ...config.transcription, api_key: stored.transcription.api_key }
      : config.transcription,
  vc:
    config.vc && stored.vc?.obf?.kind === 'token' && config.vc.obf === null && !named.has('vc_config')
      ? { ...config.vc, obf: stored.vc.obf }
      : config.vc,
});
