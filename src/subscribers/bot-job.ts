import type { BotJob, UploadTarget } from '../../contract/bot-contract';
import type { QueuedBotFacts } from '../domain/bot/bot-facts';

/**
 * The job a bot runtime gets, built from what it was queued with (the domain's BotConfig). The bot trusts
 * the sandbox's certificate only while the service accepts the sandbox hosts (SANDBOX_HOSTS, development).
 */
export const botJobFrom = (bot: QueuedBotFacts, upload: UploadTarget, service: { readonly sandboxHosts: boolean }): BotJob => {
  const config = bot.run_config;
  return {
    bot_id: bot.bot_id,
    meeting_url: bot.meeting_url,
    platform: bot.platform,
    bot_name: bot.bot_name,
    bot_image: config.bot_image?.urls ?? [],
    entry_message: config.entry_message,
    recording_mode: config.recording_mode,
    timeout_config: { ...config.timeouts },
    ignored_participant_names: config.ignored_participant_names,
    upload,
    trust_sandbox_certificate: service.sandboxHosts && new URL(bot.meeting_url).hostname.endsWith('.localhost'),
    streaming: config.streaming && { ...config.streaming },
    ...(config.bot_image ? { bot_image_config: { mode: config.bot_image.mode, interval_seconds: config.bot_image.interval_seconds } } : {}),
  };
};
