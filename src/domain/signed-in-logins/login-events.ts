import * as t from 'io-ts';
import { CreatedBy } from '../bot/bot-events';
import { eventCodec, IsoInstant, nullableField, Sealed } from '../codec-helpers';
import { FailureData, LoginPlatform } from './login-platform';
import { SignInFailureKind } from './sign-in-failures';

/** Every login event names its login, team and platform, so that read models and webhooks need no other event. */
const about = { credential_id: t.string, team_id: t.string, platform: LoginPlatform };

/**
 * A stored login: an organisation account (tm, with its password sealed) or an account of an mt workspace's
 * domain (no password: our identity provider asserts it). `email_group`, lower case, makes it a member of a
 * pool; `capacity`: the concurrent sessions it may hold.
 */
export const LoginCreated = eventCodec('LoginCreated', {
  ...about,
  workspace_id: t.string,
  email: t.string,
  email_group: t.union([t.string, t.null]),
  name: t.string,
  extra: t.union([t.UnknownRecord, t.null]),
  password: t.union([Sealed, t.null]),
  capacity: t.number,
  /** the key that created it, sealed: the login's webhooks carry it in `x-service-api-key` */
  created_by: nullableField(CreatedBy),
  at: IsoInstant,
});

export const LoginRenamed = eventCodec('LoginRenamed', { ...about, name: t.string, at: IsoInstant });
export const LoginPasswordChanged = eventCodec('LoginPasswordChanged', { ...about, password: Sealed, at: IsoInstant });
export const LoginGroupChanged = eventCodec('LoginGroupChanged', { ...about, email_group: t.union([t.string, t.null]), at: IsoInstant });
export const LoginExtraChanged = eventCodec('LoginExtraChanged', { ...about, extra: t.union([t.UnknownRecord, t.null]), at: IsoInstant });

/** A bot starts signing in with the login: one of its sessions is the bot's until LoginReleased. */
export const LoginLeased = eventCodec('LoginLeased', { ...about, bot_id: t.string, at: IsoInstant });

/**
 * The bot's session ended: its sign-in failed, or the bot ended (however: completion, failure, crash, a
 * worker that vanished), as the release subscriber saw it.
 */
export const LoginReleased = eventCodec('LoginReleased', {
  ...about,
  bot_id: t.string,
  reason: t.keyof({ sign_in_failed: null, bot_ended: null }),
  at: IsoInstant,
});

/** mt: our identity provider asserted the login's identity for this bot, once per one-time ticket. */
export const LoginAssertionIssued = eventCodec('LoginAssertionIssued', { ...about, bot_id: t.string, ticket_id: t.string, at: IsoInstant });

/** The bot is signed in (the platform accepted the login): `last_used_at`, and the timeouts start again from none. */
export const LoginSignedIn = eventCodec('LoginSignedIn', { ...about, bot_id: t.string, at: IsoInstant });

/** A sign-in with the login did not complete; `code` is the error code it stands for (sign-in-failures.ts). */
export const LoginSignInFailed = eventCodec('LoginSignInFailed', {
  ...about,
  bot_id: t.string,
  kind: SignInFailureKind,
  code: t.string,
  message: t.string,
  at: IsoInstant,
});

/** The login turned `invalid`: pools skip it until it is re-enabled. */
export const LoginInvalidated = eventCodec('LoginInvalidated', { ...about, message: t.string, failure_data: FailureData, at: IsoInstant });
export const LoginReenabled = eventCodec('LoginReenabled', { ...about, at: IsoInstant });

/** Asked to delete while bots still hold sessions: it takes no new one, and goes once the last is released. */
export const LoginDeletionRequested = eventCodec('LoginDeletionRequested', { ...about, at: IsoInstant });
export const LoginDeleted = eventCodec('LoginDeleted', { ...about, at: IsoInstant });

export const LoginEvent = t.union([
  LoginCreated, LoginRenamed, LoginPasswordChanged, LoginGroupChanged, LoginExtraChanged, LoginLeased, LoginReleased,
  LoginAssertionIssued, LoginSignedIn, LoginSignInFailed, LoginInvalidated, LoginReenabled, LoginDeletionRequested, LoginDeleted,
]);
export type LoginEvent = t.TypeOf<typeof LoginEvent>;
export type LoginCreatedEvent = t.TypeOf<typeof LoginCreated>;

const loginEventTypes: ReadonlySet<string> = new Set(LoginEvent.types.map((codec) => codec.props.type.value));
export const isLoginEvent = (event: { readonly type: string }): event is LoginEvent => loginEventTypes.has(event.type);
