import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { EventStore } from '../adapters/event-store/port';
import type { CommandDeps } from '../commands/command-deps';
import { handleTeamCommand } from '../commands/team-commands';
import { botStreamName } from '../domain/bot/bot-events';
import type { Subscriber } from './subscriber-runner';

/**
 * Bot creation reserves tokens before the bot exists. If the service dies in between, the reservation
 * has no bot; once the grace period has passed and the bot still does not exist, the reservation is
 * released as an aborted creation. Releasing twice changes nothing, so redelivery is harmless.
 */
export const releaseOrphanReservations = (deps: CommandDeps & { readonly log: Logger }, graceMs = 2 * 60 * 1000): Subscriber & { stop(): void } => {
  const timers = new Set<NodeJS.Timeout>();
  const check = async (eventStore: EventStore, teamId: string, botId: string) => {
    const [created] = await eventStore.readStream(botStreamName(botId));
    if (created) return;
    const released = await handleTeamCommand(deps, teamId, {
      type: 'ReleaseReservation',
      bot_id: botId,
      reason: 'creation_aborted',
      now: deps.clock().toISOString(),
    });
    if (E.isRight(released) && released.right.events.length > 0) deps.log.warn({ bot_id: botId, team_id: teamId }, 'released a reservation whose bot was never created');
  };
  return {
    name: 'release-orphan-reservations',
    handle: async (event) => {
      if (event.type !== 'TokensReserved') return;
      const { team_id, bot_id, at } = event.data;
      const wait = Math.max(0, Date.parse(at) + graceMs - deps.clock().getTime());
      const timer = setTimeout(() => {
        timers.delete(timer);
        check(deps.eventStore, team_id, bot_id).catch((err) => deps.log.error({ err, bot_id }, 'orphan reservation check failed'));
      }, wait);
      timer.unref();
      timers.add(timer);
    },
    stop: () => {
      timers.forEach(clearTimeout);
      timers.clear();
    },
  };
};
