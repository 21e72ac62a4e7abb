import { partOf, type ObservablePart } from '../subscribers/background/background-part';
import { SubscriberRunner, type Subscriber } from '../subscribers/subscriber-runner';
import type { ServiceContext } from './capability';

/**
 * A subscriber as a background part under its lease: each holding runs a fresh subscriber from the shared
 * checkpoint, saved only while the lease is held.
 */
export const subscriberPart = (
  context: ServiceContext,
  lease: string,
  make: () => Subscriber & { stop?(): void },
): ObservablePart<{ stop(): Promise<void> }> =>
  partOf(
    lease,
    async (holding) => {
      const subscriber = make();
      const runner = new SubscriberRunner(context.eventStore, context.checkpoints, subscriber, context.log, undefined, holding);
      await runner.start();
      return {
        stop: async () => {
          subscriber.stop?.();
          await runner.stop();
        },
      };
    },
    { lease },
  );
