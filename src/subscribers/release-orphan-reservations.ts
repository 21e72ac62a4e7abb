import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { CommandDeps } from '../commands/command-deps';
import { abandonCreation } from '../commands/create-bot';
import { loadBot } from '../commands/bot-commands';
import type { Subscriber } from './subscriber-runner';

interface Pending {
  readonly teamId: string;
  readonly reservedAtMs: number;
  /** Global position of the TokensReserved event: the checkpoint is held before it while it is pending. */
  readonly position: bigint;
  /** set once the bot's registration on its meeting's lock comes by */
  meetingUrl: string | null;
  /** set once the bot's claim of a deduplication key comes by */
  deduplicationKey: string | null;
}

/**
 * Bot creation reserves tokens before the bot exists. If the service dies in between, the reservation
 * has no bot. Reservations are remembered until their bot's creation comes by (normally the next event
 * or two), so only the few without one are ever looked at; once the grace period has passed and the bot
 * still does not exist (or was a scheduled bot that ended before it was queued), its deduplication key claim
 * and meeting registration (if it got that far) and then the reservation are released as an aborted
 * creation: the locks first, as createBot does, so that a crash between the two
 * leaves the reservation open and the sweep tries again. Releasing twice changes nothing, so replaying
 * history after a restart is harmless and cheap.
 */
export const releaseOrphanReservations = (
  deps: CommandDeps & { readonly log: Logger },
  graceMs = 2 * 60 * 1000,
): Subscriber & { stop(): void } => {
  // Pending reservations live in memory only; instead of persisting them, the runner's checkpoint is held
  // before the oldest one (replayFrom), so after a restart the replay from the checkpoint rebuilds them.
  const pending = new Map<string, Pending>();
  let sweeping = false;

  const releaseIfStillWithoutBot = async (botId: string, { teamId, meetingUrl, deduplicationKey }: Pending) => {
    const bot = await loadBot(deps, botId);
    // A scheduled bot being queued at its time: its queueing (retried by the scheduler) finishes or undoes it.
    if (bot.kind === 'present' && bot.status === 'scheduled') return;
    // No bot, or a scheduled bot that ended before it was queued (cancelled while its queueing was cut short).
    if (bot.kind === 'absent' || !bot.queued) {
      const released = await abandonCreation(deps, { team_id: teamId, meeting_url: meetingUrl, bot_id: botId, deduplication_key: deduplicationKey });
      if (E.isRight(released) && released.right.events.length > 0) deps.log.warn({ bot_id: botId, team_id: teamId }, 'released a reservation whose bot was never created');
      if (E.isLeft(released)) deps.log.error({ bot_id: botId, team_id: teamId, rejection: released.left }, 'could not release an orphan reservation');
    }
    // Forgotten only once settled: a release that threw stays pending (and keeps the checkpoint) for the next sweep.
    pending.delete(botId);
  };

  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const due = deps.clock().getTime() - graceMs;
      for (const [botId, entry] of [...pending]) {
        if (entry.reservedAtMs > due) continue;
        try {
          await releaseIfStillWithoutBot(botId, entry);
        } catch (err) {
          deps.log.error({ err, bot_id: botId }, 'orphan reservation sweep failed');
        }
      }
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), Math.max(50, Math.min(graceMs / 2, 30_000)));
  timer.unref();

  return {
    name: 'release-orphan-reservations',
    handle: async (event, recorded) => {
      if (event.type === 'TokensReserved') {
        pending.set(event.data.bot_id, { teamId: event.data.team_id, reservedAtMs: Date.parse(event.data.at), position: recorded.position, meetingUrl: null, deduplicationKey: null });
      }
      if (event.type === 'MeetingLocked') {
        const entry = pending.get(event.data.bot_id);
        if (entry) entry.meetingUrl = event.data.meeting_url;
      }
      if (event.type === 'DeduplicationKeyClaimed') {
        const entry = pending.get(event.data.bot_id);
        if (entry) entry.deduplicationKey = event.data.deduplication_key;
      }
      // Its bot exists, or the reservation was settled another way (a refused duplicate releases its own).
      if (event.type === 'BotCreated' || event.type === 'TokensReleased' || event.type === 'TokensCharged') pending.delete(event.data.bot_id);
    },
    replayFrom: () => {
      let oldest: bigint | undefined;
      for (const { position } of pending.values()) if (oldest === undefined || position < oldest) oldest = position;
      return oldest;
    },
    stop: () => clearInterval(timer),
  };
};
