import type { ArtifactLinks } from '../../adapters/artifact-links/port';
import type { BotView } from '../../projections/bot-view';
import type { BotDetails, BotSummary, ScheduledBot } from '../codecs/responses/v2-bot-responses';

export type { ArtifactLinks };

/** The list item of GET /v2/bots; internal fields (team, dispatch) stay inside. */
export const toBotSummary = (view: BotView): BotSummary => ({
  bot_id: view.bot_id,
  status: view.status,
  meeting_url: view.meeting_url,
  bot_name: view.bot_name,
  platform: view.platform,
  extra: view.extra,
  error_code: view.error_code,
  created_at: view.created_at,
  ended_at: view.ended_at,
  /** a scheduled bot's time; null for a bot created to join at once (documents written before it lack it) */
  join_at: view.join_at ?? null,
});

/** What GET /v2/bots/{bot_id} shows: the summary plus the message, the history and the artifacts. */
export const toBotDetails = async (view: BotView, links: ArtifactLinks): Promise<BotDetails> => {
  const minted = await links.linksFor(view.bot_id, view.artifacts.map((a) => a.key));
  return {
    ...toBotSummary(view),
    error_message: view.error_message,
    status_history: view.status_history,
    transcription: view.transcription ?? null,
    /** when the team deleted the bot's data; `artifacts_deleted` (the official client's): its artifacts are erased */
    data_deleted_at: view.data_deleted_at ?? null,
    artifacts_deleted: Boolean(view.artifacts_erased_at),
    artifacts: view.artifacts.map((a) => {
      const link = minted.get(a.key) ?? null;
      return { ...a, url: link?.url ?? null, url_expires_at: link?.expires_at ?? null };
    }),
  };
};

/** A scheduled bot as GET /v2/bots/scheduled shows it: its time and where it stands. */
export const toScheduledBot = (view: BotView): ScheduledBot => ({
  bot_id: view.bot_id,
  status: view.status,
  join_at: view.join_at,
  meeting_url: view.meeting_url,
  bot_name: view.bot_name,
  platform: view.platform,
  extra: view.extra,
  error_code: view.error_code,
  error_message: view.error_message,
  created_at: view.created_at,
  ended_at: view.ended_at,
});
