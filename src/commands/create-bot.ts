import { createHash } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { DEFAULT_RETENTION_DAYS, type RequestedBotConfig, type TeamSettingsOfBot } from '../domain/bot/bot-config';
import type { DeduplicationKeyRejection } from '../domain/deduplication-key/deduplication-key-decider';
import type { CreatedBy } from '../domain/bot/bot-events';
import { wasQueued } from '../domain/bot/bot-facts';
import { meetingLockDecider, type MeetingLockRejection } from '../domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent, meetingLockStreamName } from '../domain/meeting-lock/meeting-lock-events';
import { normaliseMeetingUrl } from '../domain/meeting-url';
import { teamDecider, type TeamRejection } from '../domain/team/team-decider';
import { TeamEvent, teamStreamName } from '../domain/team/team-events';
import { nowIso, type CommandDeps } from './command-deps';
import { handleBotCommand, loadBotFacts } from './bot-commands';
import { claimDeduplicationKey, releaseDeduplicationKey } from './claim-deduplication-key';
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

export type CreateBotRefusal = TeamRejection | MeetingLockRejection | DeduplicationKeyRejection;

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
 * Takes back what a creation that never produced its bot holds, in the reverse order of taking it: its
 * deduplication key claim and its meeting registration (when it got that far) first, then its reservation,
 * so that a failure in between leaves the reservation open for the reconciler to find again. Every step is
 * idempotent. Throws if a step cannot be written.
 */
export const abandonCreation = async (
  deps: CommandDeps,
  creation: {
    readonly team_id: string;
    readonly meeting_url: string | null;
    readonly bot_id: string;
    readonly deduplication_key?: string | null;
  },
) => {
  const { team_id, meeting_url, bot_id, deduplication_key } = creation;
  if (deduplication_key != null) await releaseDeduplicationKey(deps, { team_id, deduplication_key, bot_id });
  if (meeting_url !== null) await releaseMeetingRegistration(deps, { team_id, meeting_url, bot_id });
  return handleCommand(deps.eventStore, teamStreamName(team_id), teamDecider, TeamEvent, {
    type: 'ReleaseReservation',
    bot_id,
    reason: 'creation_aborted',
    now: nowIso(deps),
  });
};

/**
 * Whether the bot's stream holds its BotCreated ("reserved and queued"), not merely its schedule; null when
 * the store could not be asked.
 */
const botWasCreated = async (deps: CommandDeps, botId: string): Promise<boolean | null> => {
  try {
    return wasQueued(await loadBotFacts(deps, botId));
  } catch {
    return null;
  }
};

/**
 * What admitting a bot needs to know: whose it is, which meeting, whether it must be alone there, the
 * deduplication key it must hold alone in its team (null: none), and when.
 */
export interface Admission {
  readonly bot_id: string;
  readonly team_id: string;
  readonly meeting_url: string;
  readonly allow_multiple_bots: boolean;
  readonly deduplication_key: string | null;
  readonly now: string;
}

type Written = { readonly position: bigint | null };

/**
 * What every bot passes to be queued, a new bot at once and a scheduled bot at its time, across three or
 * four streams in an order that a crash can only leave repairable: first the team's reservation (daily
 * cap, then tokens), then the meeting registration (deduplication), then the claim of the bot's
 * deduplication key when it has one, then `writeBot` appends the bot's BotCreated, with the team's settings
 * of that moment (storage, retention). A refusal after the reservation releases what the admission took.
 * A refusal by `writeBot`, or a failure after the registration, takes back the key claim and the
 * registration first, then the reservation (the reconciler only looks at reservations still open, so the
 * locks must not be left behind a released reservation). A crash before BotCreated leaves a reservation
 * (and possibly a registration and a claim) without a queued bot: the orphan reconciler releases it for a
 * new bot, the scheduler finishes or undoes it for a scheduled one.
 */
export const admitBot = async <WriteRefusal>(
  deps: CommandDeps,
  admission: Admission,
  writeBot: (settings: TeamSettingsOfBot) => Promise<E.Either<WriteRefusal, Written>>,
): Promise<E.Either<CreateBotRefusal | WriteRefusal, Written>> => {
  const { bot_id, team_id, meeting_url, allow_multiple_bots, deduplication_key, now } = admission;
  const reserved = await handleCommand(deps.eventStore, teamStreamName(team_id), teamDecider, TeamEvent, { type: 'ReserveTokensForBot', bot_id, now });
  if (E.isLeft(reserved)) return reserved;
  const team = reserved.right.state;

  try {
    const registered = await handleCommand(deps.eventStore, meetingLockStreamFor(team_id, meeting_url), meetingLockDecider, MeetingLockEvent, {
      type: 'RegisterBotForMeeting', team_id, meeting_url, bot_id, allow_multiple_bots, now,
    });
    if (E.isLeft(registered)) {
      // Refused: the lock holds another bot, not ours; only the reservation is ours to give back.
      await abandonCreation(deps, { team_id, meeting_url: null, bot_id });
      return registered;
    }
    if (deduplication_key !== null) {
      const claimed = await claimDeduplicationKey(deps, { team_id, deduplication_key, bot_id });
      if (E.isLeft(claimed)) {
        // Refused: the key is another bot's; the meeting registration and the reservation are ours.
        await abandonCreation(deps, { team_id, meeting_url, bot_id });
        return claimed;
      }
    }
    // The team's settings of this moment are fixed into the bot: a later change affects new bots only.
    const settings: TeamSettingsOfBot = {
      storage: await storageForNewBot(deps, team_id),
      retention_days: team.kind === 'present' ? team.retention_days : DEFAULT_RETENTION_DAYS,
    };
    const written = await writeBot(settings);
    if (E.isLeft(written)) await abandonCreation(deps, { team_id, meeting_url, bot_id, deduplication_key });
    return written;
  } catch (error) {
    // An append whose answer was lost may have written the bot after all: then nothing is taken back.
    // When that cannot be known, nothing is taken back either; the reconciler checks again later.
    if ((await botWasCreated(deps, bot_id)) === false) {
      // The registration too, whatever failed: its own append may have been written with its answer lost,
      // and releasing is nothing when the lock never held the bot. What cannot be written now, the
      // reconciler takes back later.
      await abandonCreation(deps, { team_id, meeting_url, bot_id, deduplication_key }).catch(() => undefined);
    }
    throw error;
  }
};

/** A bot for now (POST /v2/bots): a new id, admitted and created at once. */
export const createBot = async (deps: CommandDeps, bot: NewBot): Promise<E.Either<CreateBotRefusal, { bot_id: string; position: bigint }>> => {
  const bot_id = deps.newId();
  const now = nowIso(deps);
  const admitted = await admitBot(
    deps,
    {
      bot_id,
      team_id: bot.team_id,
      meeting_url: bot.meeting_url,
      allow_multiple_bots: bot.config.allow_multiple_bots,
      deduplication_key: bot.config.deduplication_key,
      now,
    },
    async (settings) => {
      const created = await handleBotCommand(deps, bot_id, { type: 'CreateBot', bot_id, ...bot, config: { ...bot.config, ...settings }, now });
      // A new id is never refused nor already there: either would mean the bot was not created.
      if (E.isLeft(created) || created.right.position === null) throw new Error(`bot ${bot_id} was not created`);
      return E.right({ position: created.right.position });
    },
  );
  return E.map(({ position }: Written) => ({ bot_id, position: position! }))(admitted);
};
