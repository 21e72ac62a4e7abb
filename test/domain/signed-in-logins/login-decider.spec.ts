import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { LoginEvent } from '../../../src/domain/signed-in-logins/login-events';
import { loginDecider, type LoginCommand } from '../../../src/domain/signed-in-logins/login-decider';
import type { LoginPlatform } from '../../../src/domain/signed-in-logins/login-platform';
import { at, deciderSpec, stateAfter } from '../given-when-then';

const spec = deciderSpec(loginDecider, LoginEvent);
const T0 = '2026-05-04T09:00:00.000Z';
const LOGIN = 'c0000000-0000-4000-8000-000000000001';
const TEAM = 'team-1';
const SEALED = { sealed: 'v1.iv.tag.password' };
const CREATOR = { key_id: 'key-1', api_key: { sealed: 'v1.iv.tag.key' } };

const about = (platform: LoginPlatform = 'tm') => ({ credential_id: LOGIN, team_id: TEAM, platform });

const create = (platform: LoginPlatform = 'tm'): LoginCommand => ({
  type: 'CreateLogin',
  ...about(platform),
  workspace_id: 'ws-1',
  email: 'bot@contoso.com',
  email_group: 'pool@contoso.com',
  name: 'Notetaker 1',
  extra: null,
  password: platform === 'tm' ? SEALED : null,
  created_by: CREATOR,
  now: T0,
});
const created = (platform: LoginPlatform = 'tm'): LoginEvent => ({
  type: 'LoginCreated',
  data: {
    ...about(platform),
    workspace_id: 'ws-1',
    email: 'bot@contoso.com',
    email_group: 'pool@contoso.com',
    name: 'Notetaker 1',
    extra: null,
    password: platform === 'tm' ? SEALED : null,
    capacity: 2,
    created_by: CREATOR,
    at: T0,
  },
});
const leased = (bot_id: string, platform: LoginPlatform = 'tm', when = at(T0, { m: 1 })): LoginEvent => ({ type: 'LoginLeased', data: { ...about(platform), bot_id, at: when } });
const released = (bot_id: string, reason: 'sign_in_failed' | 'bot_ended', when: string, platform: LoginPlatform = 'tm'): LoginEvent => ({
  type: 'LoginReleased',
  data: { ...about(platform), bot_id, reason, at: when },
});
const lease = (bot_id: string, now = at(T0, { m: 1 })): LoginCommand => ({ type: 'LeaseLogin', bot_id, now });
const failure = (kind: Extract<LoginCommand, { type: 'RecordSignInFailure' }>['kind'], bot_id = 'bot-a', now = at(T0, { m: 2 })): LoginCommand => ({
  type: 'RecordSignInFailure',
  bot_id,
  kind,
  message: `the page said ${kind}`,
  now,
});
const failed = (kind: string, code: string, bot_id = 'bot-a', when = at(T0, { m: 2 }), platform: LoginPlatform = 'tm'): LoginEvent => ({
  type: 'LoginSignInFailed',
  data: { ...about(platform), bot_id, kind: kind as never, code, message: `the page said ${kind}`, at: when },
});
const invalidated = (kind: string, code: string, bot_id = 'bot-a', when = at(T0, { m: 2 }), platform: LoginPlatform = 'tm'): LoginEvent => ({
  type: 'LoginInvalidated',
  data: { ...about(platform), message: `the page said ${kind}`, failure_data: { code, reason: kind, bot_id }, at: when },
});

describe('login decider: creation', () => {
  it('a tm login is created with its sealed password and the platform’s session capacity', () => {
    spec.given([]).when(create('tm')).then([created('tm')]);
  });
  it('an mt login has no password; creating it again is a retry that records nothing', () => {
    spec.given([]).when(create('mt')).then([created('mt')]);
    spec.given([created('mt')]).when(create('mt')).thenNothing();
  });
  it('a password in clear does not decode (sealed only)', () => {
    const plain = { ...created('tm'), data: { ...(created('tm').data as object), password: 'hunter2' } };
    assert.equal(E.isLeft(LoginEvent.decode(plain)), true);
  });
  it('any command on a login that does not exist is refused', () => {
    spec.given([]).when(lease('bot-a')).thenRejects({ code: 'LOGIN_NOT_FOUND' });
  });
});

describe('login decider: sessions are leased up to the capacity and released', () => {
  it('a bot leases a session; leasing again for the same bot is a retry', () => {
    spec.given([created()]).when(lease('bot-a')).then([leased('bot-a')]);
    spec.given([created(), leased('bot-a')]).when(lease('bot-a')).thenNothing();
  });
  it('a full login refuses a third bot', () => {
    spec.given([created(), leased('bot-a'), leased('bot-b')]).when(lease('bot-c')).thenRejects({ code: 'LOGIN_FULL' });
  });
  it('a released session makes room again', () => {
    const when = at(T0, { m: 5 });
    spec.given([created(), leased('bot-a'), leased('bot-b'), released('bot-a', 'bot_ended', when)]).when(lease('bot-c', when)).then([leased('bot-c', 'tm', when)]);
  });
  it('releasing a session the bot does not hold records nothing (the release subscriber may see a bot end twice)', () => {
    spec.given([created()]).when({ type: 'ReleaseLogin', bot_id: 'bot-a', reason: 'bot_ended', now: T0 }).thenNothing();
    spec.given([created(), leased('bot-a'), released('bot-a', 'bot_ended', T0)]).when({ type: 'ReleaseLogin', bot_id: 'bot-a', reason: 'bot_ended', now: T0 }).thenNothing();
  });
  it('an invalid login takes no session', () => {
    const invalid = [
      created(),
      leased('bot-a'),
      failed('wrong_password', 'TM_LOGIN_FAILED_WRONG_PASSWORD'),
      invalidated('wrong_password', 'TM_LOGIN_FAILED_WRONG_PASSWORD'),
      released('bot-a', 'sign_in_failed', at(T0, { m: 2 })),
    ];
    spec.given(invalid).when(lease('bot-b', at(T0, { m: 3 }))).thenRejects({ code: 'LOGIN_INVALID' });
  });
});

describe('login decider: sign-in outcomes', () => {
  const session = [created(), leased('bot-a')];

  it('a sign-in marks the login used', () => {
    spec.given(session).when({ type: 'RecordSignIn', bot_id: 'bot-a', now: at(T0, { m: 2 }) }).then([{ type: 'LoginSignedIn', data: { ...about(), bot_id: 'bot-a', at: at(T0, { m: 2 }) } }]);
  });

  for (const [kind, code] of [
    ['wrong_password', 'TM_LOGIN_FAILED_WRONG_PASSWORD'],
    ['account_locked', 'TM_LOGIN_FAILED_ACCOUNT_LOCKED'],
    ['mfa_required', 'TM_LOGIN_FAILED_MFA_REQUIRED'],
    ['account_not_found', 'TM_LOGIN_FAILED_ACCOUNT_NOT_FOUND'],
  ] as const) {
    it(`${kind}: the failure with its code, the login invalid at once, the session released`, () => {
      spec.given(session).when(failure(kind)).then([failed(kind, code), invalidated(kind, code), released('bot-a', 'sign_in_failed', at(T0, { m: 2 }))]);
    });
  }

  it('a first timeout is only recorded; a second in a row turns the login invalid', () => {
    const first = at(T0, { m: 2 });
    spec.given(session).when(failure('timeout', 'bot-a', first)).then([failed('timeout', 'TM_LOGIN_FAILED_TIMEOUT', 'bot-a', first), released('bot-a', 'sign_in_failed', first)]);
    const second = at(T0, { m: 4 });
    spec
      .given([...session, failed('timeout', 'TM_LOGIN_FAILED_TIMEOUT', 'bot-a', first), released('bot-a', 'sign_in_failed', first), leased('bot-b', 'tm', at(T0, { m: 3 }))])
      .when(failure('timeout', 'bot-b', second))
      .then([failed('timeout', 'TM_LOGIN_FAILED_TIMEOUT', 'bot-b', second), invalidated('timeout', 'TM_LOGIN_FAILED_TIMEOUT', 'bot-b', second), released('bot-b', 'sign_in_failed', second)]);
  });

  it('a sign-in between two timeouts starts the count again', () => {
    const history = [
      ...session,
      failed('timeout', 'TM_LOGIN_FAILED_TIMEOUT'),
      released('bot-a', 'sign_in_failed', at(T0, { m: 2 })),
      leased('bot-b', 'tm', at(T0, { m: 3 })),
      { type: 'LoginSignedIn', data: { ...about(), bot_id: 'bot-b', at: at(T0, { m: 3 }) } } as LoginEvent,
      leased('bot-c', 'tm', at(T0, { m: 4 })),
    ];
    const when = at(T0, { m: 5 });
    spec.given(history).when(failure('timeout', 'bot-c', when)).then([failed('timeout', 'TM_LOGIN_FAILED_TIMEOUT', 'bot-c', when), released('bot-c', 'sign_in_failed', when)]);
  });

  it('mt: a rejected assertion is recorded on the login without invalidating it (the workspace turns invalid)', () => {
    const mtSession = [created('mt'), leased('bot-a', 'mt')];
    const when = at(T0, { m: 2 });
    spec
      .given(mtSession)
      .when(failure('saml_rejected', 'bot-a', when))
      .then([failed('saml_rejected', 'MT_LOGIN_FAILED_SAML_REJECTED', 'bot-a', when, 'mt'), released('bot-a', 'sign_in_failed', when, 'mt')]);
  });

  it('mt: an account the domain does not know is MT_LOGIN_FAILED_TIMEOUT and turns the login invalid', () => {
    const when = at(T0, { m: 2 });
    spec
      .given([created('mt'), leased('bot-a', 'mt')])
      .when(failure('account_not_found', 'bot-a', when))
      .then([
        failed('account_not_found', 'MT_LOGIN_FAILED_TIMEOUT', 'bot-a', when, 'mt'),
        invalidated('account_not_found', 'MT_LOGIN_FAILED_TIMEOUT', 'bot-a', when, 'mt'),
        released('bot-a', 'sign_in_failed', when, 'mt'),
      ]);
  });

  it('a failure reported again after the session ended records nothing', () => {
    spec.given([...session, released('bot-a', 'bot_ended', at(T0, { m: 3 }))]).when(failure('wrong_password')).thenNothing();
  });
});

describe('login decider: assertions (mt) are one per session, only for the bot that holds it', () => {
  const session = [created('mt'), leased('bot-a', 'mt')];
  const issue = (bot_id: string, ticket_id = 'ticket-1'): LoginCommand => ({ type: 'IssueAssertion', bot_id, ticket_id, now: at(T0, { m: 2 }) });

  it('the bot signing in gets one', () => {
    spec.given(session).when(issue('bot-a')).then([{ type: 'LoginAssertionIssued', data: { ...about('mt'), bot_id: 'bot-a', ticket_id: 'ticket-1', at: at(T0, { m: 2 }) } }]);
  });
  it('a second one for the same session is refused, whatever the ticket', () => {
    const issued: LoginEvent = { type: 'LoginAssertionIssued', data: { ...about('mt'), bot_id: 'bot-a', ticket_id: 'ticket-1', at: at(T0, { m: 2 }) } };
    spec.given([...session, issued]).when(issue('bot-a', 'ticket-2')).thenRejects({ code: 'ASSERTION_ALREADY_ISSUED' });
  });
  it('a bot without a session gets none', () => {
    spec.given(session).when(issue('bot-b')).thenRejects({ code: 'NOT_SIGNING_IN' });
    spec.given([...session, released('bot-a', 'bot_ended', at(T0, { m: 1, s: 30 }), 'mt')]).when(issue('bot-a')).thenRejects({ code: 'NOT_SIGNING_IN' });
  });
});

describe('login decider: PATCH', () => {
  const invalid = [created(), leased('bot-a'), failed('wrong_password', 'TM_LOGIN_FAILED_WRONG_PASSWORD'), invalidated('wrong_password', 'TM_LOGIN_FAILED_WRONG_PASSWORD'), released('bot-a', 'sign_in_failed', at(T0, { m: 2 }))];
  const when = at(T0, { h: 1 });

  it('renames, regroups and changes extra, each as its own event', () => {
    spec
      .given([created()])
      .when({ type: 'ChangeLogin', name: 'Renamed', email_group: null, extra: { k: 1 }, reenable: false, now: when })
      .then([
        { type: 'LoginRenamed', data: { ...about(), name: 'Renamed', at: when } },
        { type: 'LoginGroupChanged', data: { ...about(), email_group: null, at: when } },
        { type: 'LoginExtraChanged', data: { ...about(), extra: { k: 1 }, at: when } },
      ]);
  });
  it('re-enables an invalid login; re-enabling an active one records nothing', () => {
    spec.given(invalid).when({ type: 'ChangeLogin', reenable: true, now: when }).then([{ type: 'LoginReenabled', data: { ...about(), at: when } }]);
    spec.given([created()]).when({ type: 'ChangeLogin', reenable: true, now: when }).thenNothing();
  });
  it('a new password re-enables the login it made invalid', () => {
    const password = { sealed: 'v1.iv.tag.new' };
    spec
      .given(invalid)
      .when({ type: 'ChangeLogin', password, reenable: false, now: when })
      .then([
        { type: 'LoginPasswordChanged', data: { ...about(), password, at: when } },
        { type: 'LoginReenabled', data: { ...about(), at: when } },
      ]);
  });
  it('an mt login has no password to change', () => {
    spec.given([created('mt')]).when({ type: 'ChangeLogin', password: SEALED, reenable: false, now: when }).thenRejects({ code: 'NO_PASSWORD' });
  });
  it('a re-enabled login takes sessions again', () => {
    const reenabled: LoginEvent = { type: 'LoginReenabled', data: { ...about(), at: when } };
    const state = stateAfter(loginDecider, [...invalid, reenabled]);
    assert.ok(state.kind === 'present' && state.state === 'active');
    spec.given([...invalid, { type: 'LoginReenabled', data: { ...about(), at: when } }]).when(lease('bot-b', when)).then([leased('bot-b', 'tm', when)]);
  });
});

describe('login decider: deletion waits for the sessions in use', () => {
  const when = at(T0, { h: 1 });
  it('a login without sessions is deleted at once; afterwards it is not found', () => {
    spec.given([created()]).when({ type: 'DeleteLogin', now: when }).then([{ type: 'LoginDeleted', data: { ...about(), at: when } }]);
    spec.given([created(), { type: 'LoginDeleted', data: { ...about(), at: when } }]).when(lease('bot-a', when)).thenRejects({ code: 'LOGIN_NOT_FOUND' });
  });
  it('a login in use is asked to go: it takes no new session, and goes with its last release', () => {
    const requested: LoginEvent = { type: 'LoginDeletionRequested', data: { ...about(), at: when } };
    spec.given([created(), leased('bot-a')]).when({ type: 'DeleteLogin', now: when }).then([requested]);
    spec.given([created(), leased('bot-a'), requested]).when(lease('bot-b', when)).thenRejects({ code: 'LOGIN_DELETING' });
    spec.given([created(), leased('bot-a'), requested]).when({ type: 'DeleteLogin', now: when }).thenNothing();
    const later = at(T0, { h: 2 });
    spec
      .given([created(), leased('bot-a'), requested])
      .when({ type: 'ReleaseLogin', bot_id: 'bot-a', reason: 'bot_ended', now: later })
      .then([released('bot-a', 'bot_ended', later), { type: 'LoginDeleted', data: { ...about(), at: later } }]);
  });
  it('a login being deleted cannot be changed', () => {
    spec.given([created(), leased('bot-a'), { type: 'LoginDeletionRequested', data: { ...about(), at: when } }]).when({ type: 'ChangeLogin', name: 'x', reenable: false, now: when }).thenRejects({ code: 'LOGIN_DELETING' });
  });
});
