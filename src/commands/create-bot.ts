import { createHash } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { type BotConfig, DEFAULT_RETENTION_DAYS, type RequestedBotConfig } from '../domain/bot/bot-config';
import { botDecider } from '../domain/bot/bot-decider';
import { BotEvent, botStreamName, type CreatedBy } from '../domain/bot/bot-events';
import { meetingLockDecider, type MeetingLockRejection } from '../domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent, meetingLockStreamName } from '../domain/meeting-lock/meeting-lock-events';
import { normaliseMeetingUrl } from '../domain/meeting-url';
import { teamDecider, type TeamRejection } from '../domain/team/team-decider';
import { TeamEvent, teamStreamName } from '../domain/team/team-events';
import { nowIso, type CommandDeps } from './command-deps';
import { handleCommand } from './handle-command';
import { storageForNewBot } from './storage-commands';

export interface NewBot {
  readonly team_id: string;
  readonly meeting_url: string;
  readonly platform: 'vc' | 'tm' | 'mt';
  readonly bot_name: string;
  readonly extra: Record<string, unknown> | null;
  readonly config: RequestedBotConfig;
  /** the key that created the bot, sealed (webhooks carry it); null where no key did */
  readonly created_by: CreatedBy | null;
}

export type CreateBotRefusal = TeamRejection | MeetingLockRejection;

const hashOfMeetingUrl = (url: string): string =>
  createHash('sha256').update(normaliseMeetingUrl(url)).digest('hex').slice(0, 32);

/** The meeting-lock stream of a team's meeting: every spelling of one meeting URL shares it. */
export const meetingLockStreamFor = (teamId: string, meetingUrl: string): string =>
  meetingLockStreamName(teamId, hashOfMeetingUrl(meetingUrl));

/**
 * Takes back a bot's registration on its meeting's lock when the bot was never created, so that it does
 * not answer exclusive requests with BOT_ALREADY_EXISTS for a bot nobody can see. Idempotent. Called by
 * createBot when it gives up after the registration, and by the orphan reconciler after a crash (with the
 * team_id, meeting_url and bot_id of the orphan's MeetingLocked event).
 */
export const releaseMeetingRegistration = (
  deps: CommandDeps,
  registration: { readonly team_id: string; readonly meeting_url: string; readonly bot_id: string },
) =>
  handleCommand(deps.eventStore, meetingLockStreamFor(registration.team_id, registration.meeting_url), meetingLockDecider, MeetingLockEvent, {
    type: 'ReleaseBotRegistration',
    bot_id: registration.bot_id,
    reason: 'creation_aborted',
    now: nowIso(deps),
  });

/**
 * Takes back what a creation that never produced its bot holds: its meeting registration (when it got
 * that far) first, then its reservation, so that a failure between the two leaves the reservation open
 * for the reconciler to find again. Both steps are idempotent. Throws if a step cannot be written.
 */
export const abandonCreation = async (
  deps: CommandDeps,
  creation: { readonly team_id: string; readonly meeting_url: string | null; readonly bot_id: string },
) => {
  const { team_id, meeting_url, bot_id } = creation;
  if (meeting_url !== null) await releaseMeetingRegistration(deps, { team_id, meeting_url, bot_id });
  return handleCommand(deps.eventStore, teamStreamName(team_id), teamDecider, TeamEvent, {
    type: 'ReleaseReservation',
    bot_id,
    reason: 'creation_aborted',
    now: nowIso(deps),
  });
};

/** Whether the bot's stream holds its creation; null when the store could not be asked. */
const botExists = async (deps: CommandDeps, botId: string): Promise<boolean | null> => {
  try {
    return (await deps.eventStore.readStream(botStreamName(botId))).length > 0;
  } catch {
    return null;
  }
};

/**
 * Creates a bot across three streams, in an order that a crash can only leave repairable: first the
 * team's reservation (daily cap, then tokens), then the meeting registration (deduplication), then the
 * bot. A refusal after the reservation releases it. A failure after the registration takes back the
 * registration first, then the reservation (the reconciler only looks at reservations still open, so
 * the lock must not be left behind a released reservation). A crash before the bot exists leaves a
 * reservation (and possibly a registration) without a bot, which the orphan reconciler releases.
 */
export const createBot = async (deps: CommandDeps, bot: NewBot): Promise<E.Either<CreateBotRefusal, { bot_id: string; position: bigint }>> => {
  const bot_id = deps.newId();
  const now = nowIso(deps);
  const reserved = await handleCommand(deps.eventStore, teamStreamName(bot.team_id), teamDecider, TeamEvent, { type: 'ReserveTokensForBot', bot_id, now });
  if (E.isLeft(reserved)) return reserved;
  const team = reserved.right.state;

  try {
    const registered = await handleCommand(
      deps.eventStore,
      meetingLockStreamFor(bot.team_id, bot.meeting_url),
      meetingLockDecider,
      MeetingLockEvent,
      { type: 'RegisterBotForMeeting', team_id: bot.team_id, meeting_url: bot.meeting_url, bot_id, allow_multiple_bots: bot.config.allow_multiple_bots, now },
    );
    if (E.isLeft(registered)) {
      // Refused: the lock holds another bot, not ours; only the reservation is ours to give back.
      await abandonCreation(deps, { team_id: bot.team_id, meeting_url: null, bot_id });
      return registered;
    }
    // The team's settings of this moment are fixed into the bot: a later change affects new bots only.
    const config: BotConfig = {
      ...bot.config,
      storage: await storageForNewBot(deps, bot.team_id),
      retention_days: team.kind === 'present' ? team.retention_days : DEFAULT_RETENTION_DAYS,
    };
    const created = await handleCommand(deps.eventStore, botStreamName(bot_id), botDecider, BotEvent, {
      type: 'CreateBot',
      bot_id,
      team_id: bot.team_id,
      meeting_url: bot.meeting_url,
      platform: bot.platform,
      bot_name: bot.bot_name,
      extra: bot.extra,
      config,
      created_by: bot.created_by,
      now,
    });
    if (E.isLeft(created) || created.right.position === null) throw new Error(`bot ${bot_id} was not created`);
    return E.right({ bot_id, position: created.right.position });
  } catch (error) {
    // An append whose answer was lost may have written the bot after all: then nothing is taken back.
    // When that cannot be known, nothing is taken back either; the reconciler checks again later.
    if ((await botExists(deps, bot_id)) === false) {
      // The registration too, whatever failed: its own append may have been written with its answer lost,
      // and releasing is nothing when the lock never held the bot. What cannot be written now, the
      // reconciler takes back later.
      await abandonCreation(deps, { team_id: bot.team_id, meeting_url: bot.meeting_url, bot_id }).catch(() => undefined);
    }
    throw error;
  }
};
