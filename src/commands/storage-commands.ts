import type * as E from 'fp-ts/Either';
import { type StorageCommand, storageDecider, type StorageRejection, type StorageState } from '../domain/storage/storage-decider';
import { StorageEvent, storageStreamName } from '../domain/storage/storage-events';
import type { CommandDeps } from './command-deps';
import { handleCommand, type Handled } from './handle-command';

export type StorageCommandResult = E.Either<StorageRejection, Handled<StorageEvent, StorageState>>;

/** A team's storage configuration lives on its own stream, `storage-<team>`. */
export const handleStorageCommand = (deps: Pick<CommandDeps, 'eventStore'>, teamId: string, command: StorageCommand): Promise<StorageCommandResult> =>
  handleCommand(deps.eventStore, storageStreamName(teamId), storageDecider, StorageEvent, command);

