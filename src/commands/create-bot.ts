import { createHash } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { botDecider } from '../domain/bot/bot-decider';
import { BotEvent, botStreamName } from '../domain/bot/bot-events';
import { meetingLockDecider, type MeetingLockRejection } from '../domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent, meetingLockStreamName } from '../domain/meeting-lock/meeting-lock-events';
import { normaliseMeetingUrl } from '../domain/meeting-url';
import { teamDecider, type TeamRejection } from '../domain/team/team-decider';
import { TeamEvent, teamStreamName } from '../domain/team/team-events';
import { nowIso, type CommandDeps } from './command-deps';
import { handleCommand } from './handle-command';

export interface NewBot {
  readonly team_id: string;
  readonly meeting_url: string;
  readonly platform: 'vc' | 'tm' | 'mt';
  readonly bot_name: string;
  readonly allow_multiple_bots: boolean;
  readonly extra: Record<string, unknown> | null;
  /** the whole validated request, kept in BotCreated */
  readonly config: Record<string, unknown>;
}

export type CreateBotRefusal = TeamRejection | MeetingLockRejection;

const hashOfMeetingUrl = (url: string): string =>
  createHash('sha256').update(normaliseMeetingUrl(url)).digest('hex').slice(0, 32);

/**
 * Creates a bot across three streams, in an order that a crash can only leave repairable: first the
 * team's reservation (daily cap, then tokens), then the meeting registration (deduplication), then the
 * bot. A refusal after the reservation releases it; a crash before the bot exists leaves a reservation
 * without a bot, which the reservation reconciler releases.
 */
export const createBot = async (deps: CommandDeps, bot: NewBot): Promise<E.Either<CreateBotRefusal, { bot_id: string; position: bigint }>> => {
  const bot_id = deps.newId();
  const now = nowIso(deps);
  const team = teamStreamName(bot.team_id);

  const reserved = await handleCommand(deps.eventStore, team, teamDecider, TeamEvent, { type: 'ReserveTokensForBot', bot_id, now });
  if (E.isLeft(reserved)) return reserved;

  const releaseReservation = () =>
    handleCommand(deps.eventStore, team, teamDecider, TeamEvent, { type: 'ReleaseReservation', bot_id, reason: 'creation_aborted', now: nowIso(deps) });

  try {
    const registered = await handleCommand(
      deps.eventStore,
      meetingLockStreamName(bot.team_id, hashOfMeetingUrl(bot.meeting_url)),
      meetingLockDecider,
      MeetingLockEvent,
      { type: 'RegisterBotForMeeting', team_id: bot.team_id, meeting_url: bot.meeting_url, bot_id, allow_multiple_bots: bot.allow_multiple_bots, now },
    );
    if (E.isLeft(registered)) {
      await releaseReservation();
      return registered;
    }
    const created = await handleCommand(deps.eventStore, botStreamName(bot_id), botDecider, BotEvent, {
      type: 'CreateBot',
      bot_id,
      team_id: bot.team_id,
      meeting_url: bot.meeting_url,
      platform: bot.platform,
      bot_name: bot.bot_name,
      extra: bot.extra,
      config: bot.config,
      now,
    });
    if (E.isLeft(created) || created.right.position === null) throw new Error(`bot ${bot_id} was not created`);
    return E.right({ bot_id, position: created.right.position });
  } catch (error) {
    await releaseReservation().catch(() => undefined);
    throw error;
  }
};
