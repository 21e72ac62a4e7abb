import type { RecordedEvent } from '../../adapters/event-store/port';
import type { ReadStore } from '../../adapters/read-store/port';
import { loadBot } from '../../commands/bot-commands';
import type { CommandDeps } from '../../commands/command-deps';
import { handleLoginCommand } from '../../commands/signed-in-logins/login-streams';
import { releaseSessionsOfBot } from '../../commands/signed-in-logins/release-sessions';
import type { DomainEvent } from '../../domain/all-events';
import { isTerminal } from '../../domain/bot/bot-status';
import { loginQueries } from '../../projections/signed-in-logins/login-queries';
import type { Subscriber } from '../subscriber-runner';

export interface ReleaseLoginSessionsDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly waitForReadModels: (position: bigint) => Promise<boolean>;
}

/**
 * Gives back the login sessions of bots that ended, whatever ended them (their own report, a crash the
 * dispatcher saw, a vanished worker another instance failed, a restart): every one of those is a
 * BotCompleted or BotFailed in the log, and this subscriber's checkpoint survives restarts (one owner at a
 * time: the `login-sessions` lease). A lease recorded after its bot had already ended (the sign-in request
 * raced the end) is given back when it is seen.
 */
export const releaseLoginSessions = (deps: ReleaseLoginSessionsDeps): Subscriber => {
  const logins = loginQueries(deps.readStore);
  return {
    name: 'release-login-sessions',
    handle: async (event: DomainEvent, recorded: RecordedEvent) => {
      if (event.type === 'BotCompleted' || event.type === 'BotFailed') {
        // The sessions held up to the end must show in the read models.
        if (!(await deps.waitForReadModels(recorded.position))) throw new Error(`read models did not reach position ${recorded.position} in time`);
        await releaseSessionsOfBot({ commands: deps.commands, logins }, event.data.bot_id);
        return;
      }
      if (event.type === 'LoginLeased') {
        const bot = await loadBot(deps.commands, event.data.bot_id);
        if (bot.kind === 'present' && !isTerminal(bot.status)) return;
        await handleLoginCommand(deps.commands, event.data.platform, event.data.credential_id, {
          type: 'ReleaseLogin',
          bot_id: event.data.bot_id,
          reason: 'bot_ended',
          now: deps.commands.clock().toISOString(),
        });
      }
    },
  };
};
