import type * as E from 'fp-ts/Either';
import type { BotStorage } from '../domain/bot/bot-config';
import { type StorageCommand, storageDecider, type StorageRejection, type StorageState } from '../domain/storage/storage-decider';
import { StorageEvent, storageStreamName } from '../domain/storage/storage-events';
import type { CommandDeps } from './command-deps';
import { handleCommand, loadState, type Handled } from './handle-command';

export type StorageCommandResult = E.Either<StorageRejection, Handled<StorageEvent, StorageState>>;

/** A team's storage configuration lives on its own stream, `storage-<team>`. */
export const handleStorageCommand = (deps: Pick<CommandDeps, 'eventStore'>, teamId: string, command: StorageCommand): Promise<StorageCommandResult> =>
  handleCommand(deps.eventStore, storageStreamName(teamId), storageDecider, StorageEvent, command);


/** Where a bot created now writes: the team's storage configuration of this moment, or the service's store. */
export const storageForNewBot = async (deps: Pick<CommandDeps, 'eventStore'>, teamId: string): Promise<BotStorage> => {
  const { current } = await loadState(deps.eventStore, storageStreamName(teamId), storageDecider, StorageEvent);
  return current === null
    ? { kind: 'service' }
    : { kind: 'customer', storage_config_id: current.storage_config_id, configured_at: current.updated_at, settings: current.settings };
};

/** Records that using a bot's storage failed, against the team's configuration if that version is still in force. */
export const recordStorageAccessFailure = async (
  deps: Pick<CommandDeps, 'eventStore' | 'clock'>,
  teamId: string,
  storage: BotStorage,
  message: string,
): Promise<void> => {
  if (storage.kind !== 'customer') return;
  await handleStorageCommand(deps, teamId, {
    type: 'RecordStorageAccessFailure',
    team_id: teamId,
    storage_config_id: storage.storage_config_id,
    configured_at: storage.configured_at,
    message,
    now: deps.clock().toISOString(),
  });
};
