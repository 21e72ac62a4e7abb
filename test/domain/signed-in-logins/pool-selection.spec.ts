import assert from 'node:assert/strict';
import { poolDecider } from '../../../src/domain/signed-in-logins/pool-decider';
import { PoolEvent } from '../../../src/domain/signed-in-logins/pool-events';
import { isActiveLogin, loginsInOrderOfChoice, matchingLogins, type LoginCandidate } from '../../../src/domain/signed-in-logins/pool-selection';
import { deciderSpec } from '../given-when-then';

const login = (credential_id: string, over: Partial<LoginCandidate> = {}): LoginCandidate => ({
  credential_id,
  email_group: 'pool@contoso.com',
  state: 'active',
  workspace_state: 'active',
  deleting: false,
  sessions: 0,
  capacity: 2,
  last_used_at: null,
  ...over,
});
const ids = (cs: readonly LoginCandidate[]) => cs.map((c) => c.credential_id);

describe('login pools: which logins a selector names', () => {
  const all = [login('a'), login('b', { email_group: 'POOL@contoso.com' }), login('c', { email_group: 'other@contoso.com' }), login('d', { email_group: null })];

  it('email_group: the logins of that group, without regard to case', () => {
    assert.deepEqual(ids(matchingLogins(all, { credential_id: null, email_group: 'Pool@Contoso.com' })), ['a', 'b']);
  });
  it('email_group takes priority over credential_id (the spec)', () => {
    assert.deepEqual(ids(matchingLogins(all, { credential_id: 'c', email_group: 'pool@contoso.com' })), ['a', 'b']);
  });
  it('credential_id alone pins one login', () => {
    assert.deepEqual(ids(matchingLogins(all, { credential_id: 'c', email_group: null })), ['c']);
  });
  it('neither: every login of the team on the platform', () => {
    assert.deepEqual(ids(matchingLogins(all, { credential_id: null, email_group: null })), ['a', 'b', 'c', 'd']);
  });
});

describe('login pools: the least-loaded active login first', () => {
  it('fewest sessions first', () => {
    assert.deepEqual(ids(loginsInOrderOfChoice([login('a', { sessions: 1 }), login('b'), login('c', { sessions: 1 })])), ['b', 'a', 'c']);
  });
  it('among equals, the one used longest ago (never used first), then by id', () => {
    const order = loginsInOrderOfChoice([
      login('a', { last_used_at: '2026-05-04T10:00:00.000Z' }),
      login('b', { last_used_at: '2026-05-04T09:00:00.000Z' }),
      login('d'),
      login('c'),
    ]);
    assert.deepEqual(ids(order), ['c', 'd', 'b', 'a']);
  });
  it('full, invalid, deleting and logins of an invalid workspace are skipped', () => {
    const order = loginsInOrderOfChoice([
      login('full', { sessions: 2 }),
      login('invalid', { state: 'invalid' }),
      login('deleting', { deleting: true }),
      login('workspace', { workspace_state: 'invalid' }),
      login('ok', { sessions: 1 }),
    ]);
    assert.deepEqual(ids(order), ['ok']);
  });
  it('active means the login, its workspace and no deletion', () => {
    assert.equal(isActiveLogin(login('a')), true);
    assert.equal(isActiveLogin(login('a', { sessions: 2 })), true, 'a full login is still active');
    assert.equal(isActiveLogin(login('a', { workspace_state: 'invalid' })), false);
  });
});

describe('login pools: a saturation is recorded once per bot', () => {
  const spec = deciderSpec(poolDecider, PoolEvent);
  const command = {
    type: 'RecordSaturation' as const,
    team_id: 'team-1',
    platform: 'tm' as const,
    bot_id: 'bot-a',
    credential_id: null,
    email_group: 'pool@contoso.com',
    fallback: 'fail' as const,
    logins: 2,
    logins_active: 2,
    now: '2026-05-04T09:00:00.000Z',
  };
  const { type: _type, now, ...data } = command;
  const saturated: PoolEvent = { type: 'LoginSaturated', data: { ...data, at: now } };

  it('records who asked for what, and what the bot does instead', () => {
    spec.given([]).when(command).then([saturated]);
  });
  it('a retry for the same bot records nothing; another bot is recorded', () => {
    spec.given([saturated]).when(command).thenNothing();
    spec.given([saturated]).when({ ...command, bot_id: 'bot-b' }).then([{ type: 'LoginSaturated', data: { ...saturated.data, bot_id: 'bot-b' } }]);
  });
});
