import type { BotJob, TimeoutConfig, UploadTarget } from '../../bot-runtime/contract';
import type { BotCreatedEvent } from '../domain/bot/bot-events';

const defaultTimeouts: TimeoutConfig = {
  waiting_room_timeout: 600,
  no_one_joined_timeout: 600,
  silence_timeout: 600,
  grace_period: 0,
  max_recording_duration: null,
};

/** The job a bot runtime gets, built from what the team asked for at creation. */
export const botJobFrom = (created: BotCreatedEvent, upload: UploadTarget): BotJob => {
  const config = created.data.config as {
    bot_image?: string[];
    entry_message?: string | null;
    recording_mode?: BotJob['recording_mode'];
    timeout_config?: Partial<TimeoutConfig>;
    ignored_participant_names?: string[];
  };
  return {
    bot_id: created.data.bot_id,
    meeting_url: created.data.meeting_url,
    platform: created.data.platform,
    bot_name: created.data.bot_name,
    bot_image: config.bot_image ?? [],
    entry_message: config.entry_message ?? null,
    recording_mode: config.recording_mode ?? 'speaker_view',
    timeout_config: { ...defaultTimeouts, ...config.timeout_config },
    ignored_participant_names: config.ignored_participant_names ?? [],
    upload,
    trust_sandbox_certificate: new URL(created.data.meeting_url).hostname.endsWith('.localhost'),
  };
};
