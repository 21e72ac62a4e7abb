import type { BotJob, UploadTarget } from '../../contract/bot-contract';
import type { QueuedBotFacts } from '../domain/bot/bot-facts';

/** What the service lets its bots do on their host, from its own settings (README "Security", Bots). */
export interface BotHostPolicy {
  /** the service takes sandbox meeting URLs (SANDBOX_HOSTS): its bots may trust the certificate the sandbox presents */
  readonly sandboxHosts: boolean;
  /** customers' endpoints (images, streaming sockets, buckets) may be on private addresses: not production */
  readonly privateAddressesAllowed: boolean;
}

/** The job a bot runtime gets, built from what it was queued with (the domain's BotConfig). */
export const botJobFrom = (bot: QueuedBotFacts, upload: UploadTarget, host: BotHostPolicy): BotJob => {
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
    trust_sandbox_certificate: host.sandboxHosts && new URL(bot.meeting_url).hostname.endsWith('.localhost'),
    private_addresses_allowed: host.privateAddressesAllowed,
    streaming: config.streaming && { ...config.streaming },
    sign_in: config.login !== null && bot.platform !== 'vc' ? { platform: bot.platform } : null,
    ...(config.bot_image ? { bot_image_config: { mode: config.bot_image.mode, interval_seconds: config.bot_image.interval_seconds } } : {}),
  };
};
