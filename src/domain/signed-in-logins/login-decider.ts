import * as E from 'fp-ts/Either';
import type { Sealed } from '../codec-helpers';
import type { CreatedBy } from '../bot/bot-events';
import type { Decider } from '../decider';
import type { LoginEvent } from './login-events';
import { SESSION_CAPACITY, type CredentialState, type LoginPlatform } from './login-platform';
import { effectOf, signInFailureCode, TIMEOUTS_BEFORE_INVALID, type SignInFailureKind } from './sign-in-failures';

export type LoginCommand =
  | {
      readonly type: 'CreateLogin';
      readonly credential_id: string;
      readonly team_id: string;
      readonly platform: LoginPlatform;
      readonly workspace_id: string;
      readonly email: string;
      readonly email_group: string | null;
      readonly name: string;
      readonly extra: Record<string, unknown> | null;
      readonly password: Sealed | null;
      readonly created_by: CreatedBy | null;
      readonly now: string;
    }
  /** PATCH: only the fields given change; `reenable` asks for the state `active` again. */
  | {
      readonly type: 'ChangeLogin';
      readonly name?: string;
      readonly email_group?: string | null;
      readonly password?: Sealed;
      readonly extra?: Record<string, unknown> | null;
      readonly reenable: boolean;
      readonly now: string;
    }
  | { readonly type: 'LeaseLogin'; readonly bot_id: string; readonly now: string }
  | { readonly type: 'ReleaseLogin'; readonly bot_id: string; readonly reason: 'sign_in_failed' | 'bot_ended'; readonly now: string }
  | { readonly type: 'IssueAssertion'; readonly bot_id: string; readonly ticket_id: string; readonly now: string }
  | { readonly type: 'RecordSignIn'; readonly bot_id: string; readonly now: string }
  | { readonly type: 'RecordSignInFailure'; readonly bot_id: string; readonly kind: SignInFailureKind; readonly message: string; readonly now: string }
  | { readonly type: 'DeleteLogin'; readonly now: string };

export type LoginRejection = {
  readonly code: 'LOGIN_NOT_FOUND' | 'LOGIN_INVALID' | 'LOGIN_FULL' | 'LOGIN_DELETING' | 'NOT_SIGNING_IN' | 'ASSERTION_ALREADY_ISSUED' | 'NO_PASSWORD';
  readonly message: string;
};

interface Session {
  /** mt: our identity provider has asserted the login for this session (once per session) */
  readonly asserted: boolean;
}

export type LoginState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly credential_id: string;
      readonly team_id: string;
      readonly platform: LoginPlatform;
      readonly state: CredentialState;
      readonly capacity: number;
      /** by bot id: the sessions held now */
      readonly sessions: Readonly<Record<string, Session>>;
      readonly consecutiveTimeouts: number;
      readonly deletion: 'none' | 'requested' | 'deleted';
    };

type Present = Extract<LoginState, { kind: 'present' }>;

const initialState = (): LoginState => ({ kind: 'absent' });

const reject = (code: LoginRejection['code'], message: string) => E.left<LoginRejection, readonly LoginEvent[]>({ code, message });
const emit = (...events: LoginEvent[]) => E.right<LoginRejection, readonly LoginEvent[]>(events);
const noEvents = emit();

const aboutOf = (state: Present) => ({ credential_id: state.credential_id, team_id: state.team_id, platform: state.platform });

/** Events after which the last session of a login being deleted is gone: the login goes too. */
const deletedAfterRelease = (state: Present, botId: string, now: string): LoginEvent[] => {
  const left = Object.keys(state.sessions).filter((id) => id !== botId);
  return state.deletion === 'requested' && left.length === 0 ? [{ type: 'LoginDeleted', data: { ...aboutOf(state), at: now } }] : [];
};

const release = (state: Present, botId: string, reason: 'sign_in_failed' | 'bot_ended', now: string): LoginEvent[] => [
  { type: 'LoginReleased', data: { ...aboutOf(state), bot_id: botId, reason, at: now } },
  ...deletedAfterRelease(state, botId, now),
];

const change = (state: Present, command: Extract<LoginCommand, { type: 'ChangeLogin' }>) => {
  if (state.deletion !== 'none') return reject('LOGIN_DELETING', 'The login is being deleted: it finishes its sessions and goes');
  if (command.password !== undefined && state.platform !== 'tm') return reject('NO_PASSWORD', 'An mt login has no password: our identity provider signs it in');
  const about = aboutOf(state);
  const at = command.now;
  const events: LoginEvent[] = [];
  if (command.name !== undefined) events.push({ type: 'LoginRenamed', data: { ...about, name: command.name, at } });
  if (command.email_group !== undefined) events.push({ type: 'LoginGroupChanged', data: { ...about, email_group: command.email_group, at } });
  if (command.extra !== undefined) events.push({ type: 'LoginExtraChanged', data: { ...about, extra: command.extra, at } });
  if (command.password !== undefined) events.push({ type: 'LoginPasswordChanged', data: { ...about, password: command.password, at } });
  // A new password is worth a try: it re-enables a login the old one made invalid.
  if (state.state === 'invalid' && (command.reenable || command.password !== undefined)) events.push({ type: 'LoginReenabled', data: { ...about, at } });
  return emit(...events);
};

const lease = (state: Present, botId: string, now: string) => {
  if (state.sessions[botId]) return noEvents;
  if (state.deletion !== 'none') return reject('LOGIN_DELETING', 'The login is being deleted and takes no new session');
  if (state.state !== 'active') return reject('LOGIN_INVALID', 'The login is invalid: re-enable it with PATCH');
  if (Object.keys(state.sessions).length >= state.capacity) return reject('LOGIN_FULL', `The login already holds its ${state.capacity} concurrent sessions`);
  return emit({ type: 'LoginLeased', data: { ...aboutOf(state), bot_id: botId, at: now } });
};

const issueAssertion = (state: Present, command: Extract<LoginCommand, { type: 'IssueAssertion' }>) => {
  const session = state.sessions[command.bot_id];
  if (!session) return reject('NOT_SIGNING_IN', 'This bot holds no session of the login: only a bot signing in with it, during its own run, gets an assertion');
  if (session.asserted) return reject('ASSERTION_ALREADY_ISSUED', 'An assertion was already issued for this sign-in: the credential is good once');
  if (state.state !== 'active') return reject('LOGIN_INVALID', 'The login is invalid: re-enable it with PATCH');
  return emit({ type: 'LoginAssertionIssued', data: { ...aboutOf(state), bot_id: command.bot_id, ticket_id: command.ticket_id, at: command.now } });
};

/** The failure is recorded, the session ends (it never started), and the login turns invalid if the failure says so. */
const signInFailure = (state: Present, command: Extract<LoginCommand, { type: 'RecordSignInFailure' }>) => {
  // A report repeated after the session ended (a retry) changes nothing.
  if (!state.sessions[command.bot_id]) return noEvents;
  const about = aboutOf(state);
  const code = signInFailureCode(state.platform, command.kind);
  const effect = effectOf(command.kind);
  const invalidates = state.state === 'active' && (effect === 'login_invalid' || (effect === 'counted_timeout' && state.consecutiveTimeouts + 1 >= TIMEOUTS_BEFORE_INVALID));
  const at = command.now;
  return emit(
    { type: 'LoginSignInFailed', data: { ...about, bot_id: command.bot_id, kind: command.kind, code, message: command.message, at } },
    ...(invalidates
      ? [{ type: 'LoginInvalidated' as const, data: { ...about, message: command.message, failure_data: { code, reason: command.kind, bot_id: command.bot_id }, at } }]
      : []),
    ...release(state, command.bot_id, 'sign_in_failed', at),
  );
};

const decidePresent = (command: Exclude<LoginCommand, { type: 'CreateLogin' }>, state: Present) => {
  switch (command.type) {
    case 'ChangeLogin':
      return change(state, command);
    case 'LeaseLogin':
      return lease(state, command.bot_id, command.now);
    case 'ReleaseLogin':
      return state.sessions[command.bot_id] ? emit(...release(state, command.bot_id, command.reason, command.now)) : noEvents;
    case 'IssueAssertion':
      return issueAssertion(state, command);
    case 'RecordSignIn':
      return state.sessions[command.bot_id] ? emit({ type: 'LoginSignedIn', data: { ...aboutOf(state), bot_id: command.bot_id, at: command.now } }) : noEvents;
    case 'RecordSignInFailure':
      return signInFailure(state, command);
    case 'DeleteLogin': {
      if (state.deletion === 'requested') return noEvents;
      const data = { ...aboutOf(state), at: command.now };
      return emit(Object.keys(state.sessions).length > 0 ? { type: 'LoginDeletionRequested', data } : { type: 'LoginDeleted', data });
    }
  }
};

const decide = (command: LoginCommand, state: LoginState) => {
  if (command.type === 'CreateLogin') {
    // Creating the same login twice is a retry of the same request.
    if (state.kind === 'present') return noEvents;
    const { type: _type, now, ...data } = command;
    return emit({ type: 'LoginCreated', data: { ...data, capacity: SESSION_CAPACITY[command.platform], at: now } });
  }
  if (state.kind === 'absent' || state.deletion === 'deleted') return reject('LOGIN_NOT_FOUND', 'Login not found');
  return decidePresent(command, state);
};

const withoutSession = (sessions: Readonly<Record<string, Session>>, botId: string): Record<string, Session> => {
  const { [botId]: _gone, ...rest } = sessions;
  return rest;
};

const evolve = (state: LoginState, event: LoginEvent): LoginState => {
  if (event.type === 'LoginCreated') {
    if (state.kind === 'present') return state;
    const { credential_id, team_id, platform, capacity } = event.data;
    return { kind: 'present', credential_id, team_id, platform, state: 'active', capacity, sessions: {}, consecutiveTimeouts: 0, deletion: 'none' };
  }
  if (state.kind === 'absent') return state;
  switch (event.type) {
    case 'LoginLeased':
      return { ...state, sessions: { ...state.sessions, [event.data.bot_id]: { asserted: false } } };
    case 'LoginReleased':
      return { ...state, sessions: withoutSession(state.sessions, event.data.bot_id) };
    case 'LoginAssertionIssued': {
      const session = state.sessions[event.data.bot_id];
      return session ? { ...state, sessions: { ...state.sessions, [event.data.bot_id]: { asserted: true } } } : state;
    }
    case 'LoginSignedIn':
      return { ...state, consecutiveTimeouts: 0 };
    case 'LoginSignInFailed':
      return event.data.kind === 'timeout' ? { ...state, consecutiveTimeouts: state.consecutiveTimeouts + 1 } : state;
    case 'LoginInvalidated':
      return { ...state, state: 'invalid' };
    case 'LoginReenabled':
      return { ...state, state: 'active', consecutiveTimeouts: 0 };
    case 'LoginDeletionRequested':
      return { ...state, deletion: 'requested' };
    case 'LoginDeleted':
      return { ...state, deletion: 'deleted' };
    case 'LoginRenamed':
    case 'LoginPasswordChanged':
    case 'LoginGroupChanged':
    case 'LoginExtraChanged':
      return state;
  }
};

export const loginDecider: Decider<LoginCommand, LoginEvent, LoginState, LoginRejection> = { decide, evolve, initialState };
