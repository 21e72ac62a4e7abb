import type { BotConfig } from './bot-config';
import type { BotDefinition } from './bot-decider';
import type { BotEvent, CreatedBy, Usage } from './bot-events';
import { isInCall, type BotStatus } from './bot-status';
import { failedStatus } from './end-codes';

/**
 * What a bot is, derived from its events: the one reading of a bot's stream that every reader outside the
 * decider uses (subscribers, commands, webhooks), so that none of them has to know how a stream begins. A
 * bot created to join at once starts with BotCreated; a scheduled bot (and a calendar bot, which is one)
 * starts with BotScheduled, may be changed (BotScheduleChanged), and gets its BotCreated only when it is
 * queued at its time, or never when it ends before (cancelled, refused).
 */
export interface BotFacts extends BotDefinition {
  readonly bot_id: string;
  readonly team_id: string;
  /** the key that created or scheduled the bot (webhooks carry it); never returned */
  readonly created_by: CreatedBy | null;
  /**
   * What it runs with, from its queueing on: its definition's config with the team's settings of that moment
   * (storage, retention) fixed in. Null while a scheduled bot waits for its time, and for good when it ended
   * before (it was never queued, reserved nothing, ran nothing).
   */
  readonly run_config: BotConfig | null;
  readonly times: BotTimes;
  /** what the bot is now */
  readonly status: BotStatus;
  /** how it ended; null while it has not */
  readonly outcome: BotOutcome | null;
}

export interface BotTimes {
  /** when the team asked for the bot (for a scheduled bot: when it was scheduled) */
  readonly created_at: string;
  /** a scheduled bot's time, as last set; null for a bot created to join at once */
  readonly join_at: string | null;
  /** when it was reserved and queued: at its creation, or at a scheduled bot's time; null until then */
  readonly queued_at: string | null;
  /** when it was first admitted to the call */
  readonly joined_at: string | null;
  readonly ended_at: string | null;
}

/** How the bot ended: `cancelled` is a scheduled bot its team ended before its time (end-codes.ts). */
export type BotOutcome =
  | { readonly status: 'completed'; readonly end_reason: string; readonly usage: Usage; readonly at: string }
  | { readonly status: 'failed' | 'cancelled'; readonly error_code: string; readonly error_message: string; readonly usage: Usage; readonly at: string };

/** The facts after one more event of the bot's stream (null: no bot yet). */
export const evolveBotFacts = (facts: BotFacts | null, event: BotEvent): BotFacts | null => {
  if (event.type === 'BotScheduled') {
    if (facts !== null) return facts;
    const { bot_id, team_id, created_by, join_at, at, ...definition } = event.data;
    return {
      bot_id, team_id, created_by, ...definition, run_config: null, status: 'scheduled', outcome: null,
      times: { created_at: at, join_at, queued_at: null, joined_at: null, ended_at: null },
    };
  }
  if (event.type === 'BotCreated') {
    const { bot_id, team_id, created_by, created_at, config, ...rest } = event.data;
    // A scheduled bot queued at its time keeps its creation time and its join_at.
    const times = facts?.times ?? { created_at, join_at: null, joined_at: null, ended_at: null };
    return { bot_id, team_id, created_by, ...rest, config, run_config: config, status: 'queued', outcome: null, times: { ...times, queued_at: created_at } };
  }
  if (facts === null) return null;
  switch (event.type) {
    case 'BotScheduleChanged': {
      const { bot_id: _bot, join_at, at: _at, ...definition } = event.data;
      return { ...facts, ...definition, times: { ...facts.times, join_at } };
    }
    case 'StatusChanged': {
      const { status, at } = event.data;
      const joined_at = facts.times.joined_at ?? (isInCall(status) ? at : null);
      return { ...facts, status, times: { ...facts.times, joined_at } };
    }
    case 'BotCompleted': {
      const { end_reason, usage, at } = event.data;
      return { ...facts, status: 'completed', outcome: { status: 'completed', end_reason, usage, at }, times: { ...facts.times, ended_at: at } };
    }
    case 'BotFailed': {
      const { error_code, error_message, usage, at } = event.data;
      const status = failedStatus(facts.status, error_code);
      return { ...facts, status, outcome: { status, error_code, error_message, usage, at }, times: { ...facts.times, ended_at: at } };
    }
    default:
      return facts;
  }
};

/** The bot's facts from its events, oldest first; null when they hold no bot. */
export const botFactsOf = (events: readonly BotEvent[]): BotFacts | null => events.reduce(evolveBotFacts, null);

/** A bot that has been queued: what it runs with is fixed. */
export type QueuedBotFacts = BotFacts & { readonly run_config: BotConfig; readonly times: BotTimes & { readonly queued_at: string } };

export const wasQueued = (facts: BotFacts | null): facts is QueuedBotFacts => facts !== null && facts.run_config !== null;
