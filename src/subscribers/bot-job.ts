import type { BotJob, UploadTarget } from '../../bot-runtime/contract';
import type { BotCreatedEvent } from '../domain/bot/bot-events';

/** The job a bot runtime gets, built from the domain's BotConfig of its creation. */
export const botJobFrom = (created: BotCreatedEvent, upload: UploadTarget): BotJob => {
  const { config } = created.data;
  return {
    bot_id: created.data.bot_id,
    meeting_url: created.data.meeting_url,
    platform: created.data.platform,
    bot_name: created.data.bot_name,
    bot_image: config.bot_image?.urls ?? [],
    entry_message: config.entry_message,
    recording_mode: config.recording_mode,
    timeout_config: { ...config.timeouts },
    ignored_participant_names: config.ignored_participant_names,
    upload,
    trust_sandbox_certificate: new URL(created.data.meeting_url).hostname.endsWith('.localhost'),
    streaming: config.streaming && { ...config.streaming },
    sign_in: config.login !== null && created.data.platform !== 'vc' ? { platform: created.data.platform } : null,
    ...(config.bot_image ? { bot_image_config: { mode: config.bot_image.mode, interval_seconds: config.bot_image.interval_seconds } } : {}),
  };
};
