import type { BotView } from '../../projections/bot-view';

/** The official client's transcription states. */
export const TRANSCRIPTION_STATUSES = ['queued', 'processing', 'done', 'error', 'not-applicable', 'not-started'] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

/**
 * Where the bot's transcription stands: none asked for (not-applicable), not due before the bot has completed
 * (not-started), due and not yet picked up (queued), running (processing), done, or failed (error: see
 * GET /v2/bots/{id} for why).
 */
export const transcriptionStatusOf = (view: BotView): TranscriptionStatus => {
  const last = view.transcription ?? null;
  if (last !== null) return last.status === 'running' ? 'processing' : last.status === 'completed' ? 'done' : 'error';
  if (view.transcription_wanted !== true) return 'not-applicable';
  return view.status === 'completed' ? 'queued' : 'not-started';
};

/**
 * GET /v2/bots/{id}/status: what a client polls, read from the bot's read model alone (no artifact links,
 * no event log): the status and when it last changed, the transcription's, how it ended, and the history.
 */
export const toBotStatus = (view: BotView) => ({
  bot_id: view.bot_id,
  status: view.status,
  transcription_status: transcriptionStatusOf(view),
  updated_at: view.status_history[view.status_history.length - 1]?.created_at ?? view.created_at,
  error_code: view.error_code,
  error_message: view.error_message,
  status_history: view.status_history,
});
