import type Router from '@koa/router';
import type Logger from 'bunyan';
import type Koa from 'koa';
import type { BotControlHub } from '../adapters/bot-control/control-hub';
import type { CheckpointStore } from '../adapters/checkpoint-store/port';
import type { SecretBox } from '../adapters/crypto/secret-box';
import type { EventStore } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { ServiceKeys } from '../adapters/signing/service-keys';
import { SignInTickets } from '../adapters/signing/sign-in-tickets';
import type { Signer } from '../adapters/signing/signer';
import type { CommandDeps } from '../commands/command-deps';
import type { AppState } from '../http/app-context';
import { signedInLoginApiRouters, signedInLoginUnauthenticatedRouters } from '../http/signed-in-logins';
import type { ProjectionRunner } from '../projections/projection-runner';
import { signedInLoginSubscribers } from '../subscribers/signed-in-logins';
import { SubscriberRunner } from '../subscribers/subscriber-runner';

export interface SignedInLoginsDeps {
  readonly eventStore: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ProjectionRunner;
  readonly secretBox: SecretBox;
  readonly keys: ServiceKeys;
  readonly signer: Signer;
  readonly control: BotControlHub;
  /** how bots and Google reach the service (the SSO profile's URLs); known once it listens */
  readonly publicUrl: () => string;
  readonly webhooksQueued: () => void;
  readonly log: Logger;
}

export interface SignedInLogins {
  /** the authenticated routers: `/v2/{tm,mt}-workspaces` and `/v2/{tm,mt}-logins` */
  readonly routers: readonly Router<AppState>[];
  /** outside the API key: our SAML identity provider and the bots' `POST /internal/bots/{id}/sign-in` */
  readonly unauthenticatedRouters: readonly Koa.Middleware<AppState, any>[];
  /** the side effects (sessions released when bots end, the account webhooks), each from its own checkpoint */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Signed-in bots (issue 20): tm and mt workspaces and logins, their pools and sessions, our SAML identity
 * provider for Google, the bots' sign-in calls, and the subscribers that release sessions and tell teams.
 */
export const signedInLoginsCapability = (deps: SignedInLoginsDeps): SignedInLogins => {
  const api = { ...deps, tickets: new SignInTickets(deps.keys) };
  const runners = signedInLoginSubscribers({ ...deps, waitForReadModels: (position) => deps.projections.waitForPosition(position, 30_000) })
    .map((subscriber) => new SubscriberRunner(deps.eventStore, deps.checkpoints, subscriber, deps.log));
  return {
    routers: signedInLoginApiRouters(api),
    unauthenticatedRouters: signedInLoginUnauthenticatedRouters(api),
    start: async () => {
      for (const runner of runners) await runner.start();
    },
    stop: async () => {
      for (const runner of runners) await runner.stop();
    },
  };
};
