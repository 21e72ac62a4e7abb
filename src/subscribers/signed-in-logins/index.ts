import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import type { Subscriber } from '../subscriber-runner';
import { queueLoginWebhooks } from './queue-login-webhooks';
import { releaseLoginSessions } from './release-login-sessions';

export interface SignedInLoginSubscriberDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly waitForReadModels: (position: bigint) => Promise<boolean>;
  readonly webhooksQueued: () => void;
}

/** The side effects of signed-in bots (issue 20), each with its own checkpoint. */
export const signedInLoginSubscribers = (deps: SignedInLoginSubscriberDeps): readonly Subscriber[] => [
  releaseLoginSessions(deps),
  queueLoginWebhooks({ ...deps, queued: deps.webhooksQueued }),
];
