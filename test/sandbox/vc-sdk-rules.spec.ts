import assert from 'node:assert/strict';
import { signSdkJwt } from '../../src/adapters/vc-platform/sdk-signature';
import { sdkSignatureClaims, type SdkRole } from '../../src/domain/vc-credentials/sdk-signature-claims';
import { addSimulated, createMeeting, leave, openPage, participant, type Meeting } from '../../sandbox/meeting-state';
import { pageView } from '../../sandbox/meeting-views';
import { sdkJoin, type SdkJoinResult } from '../../sandbox/vc-sdk/sdk-join';
import { VcIdentity, type SdkApp } from '../../sandbox/vc-sdk/vc-identity';

const NOW = Date.parse('2026-03-03T09:00:00.000Z');
const MEETING = '123456789';

describe('sandbox vc: the platform’s rules for a Meeting SDK join (the service’s signer against the sandbox’s checks)', () => {
  let identity: VcIdentity;
  let own: SdkApp;
  let vendor: SdkApp;
  let closed: SdkApp;
  let meeting: Meeting;
  let n = 0;

  const sign = (app: SdkApp, role: SdkRole = 0, at = NOW, mn = MEETING, secret = app.sdk_secret) => signSdkJwt(sdkSignatureClaims(app.sdk_key, mn, role, at), secret);
  const join = (params: Record<string, unknown>, at = NOW): SdkJoinResult => {
    const p = openPage(meeting, `p${++n}`, at);
    return sdkJoin(meeting, identity, p.participant_id, { meetingNumber: MEETING, userName: 'Notetaker', passWord: '', ...params }, () => true, at);
  };
  const refused = (result: SdkJoinResult): number => {
    if (result.ok) assert.fail('expected a refusal');
    return result.errorCode;
  };
  const obf = (userId: string, app = vendor, mn = MEETING, ttl?: number) =>
    identity.issue({ type: 'onbehalf', user_id: userId, sdk_key: app.sdk_key, meeting_id: mn, ...(ttl ? { ttl_seconds: ttl } : {}) }, NOW).token;

  beforeEach(() => {
    identity = new VcIdentity();
    own = identity.createApp({ name: 'Host Org Notes', organisation: 'host-org' });
    vendor = identity.createApp({ name: 'Acme Notetaker', organisation: 'acme', external: true });
    closed = identity.createApp({ name: 'Closed App', organisation: 'acme', external: false });
    identity.createUser({ user_id: 'alice', name: 'Alice', organisation: 'host-org' });
    identity.createUser({ user_id: 'hank', name: 'Hank Host', organisation: 'host-org' });
    meeting = createMeeting(MEETING, { platform: 'vc', lobby: false, organisation: 'host-org', host_user_id: 'hank' }, NOW);
  });

  describe('the signature', () => {
    it('given an app of the meeting’s organisation and a good signature, then it joins without any token', () => {
      const result = join({ signature: sign(own) });
      assert.ok(result.ok);
      assert.equal(result.participant.state, 'in_call');
      assert.deepEqual(result.participant.sdk_app, { key: own.sdk_key, name: 'Host Org Notes' });
    });

    it('given a bad one, then the SDK’s codes: 3712 wrong secret, 3704 unknown key, 3705 expired, 3706 another meeting', () => {
      assert.equal(refused(join({ signature: sign(own, 0, NOW, MEETING, 'not-the-secret') })), 3712);
      assert.equal(refused(join({ signature: 'not.a.jwt' })), 3712);
      assert.equal(refused(join({ signature: signSdkJwt(sdkSignatureClaims('nobody', MEETING, 0, NOW), 'x') })), 3704);
      assert.equal(refused(join({ signature: sign(own, 0, NOW - 3600_000) })), 3705);
      assert.equal(refused(join({ signature: sign(own, 0, NOW, '987654321') })), 3706);
    });
  });

  describe('a meeting of another organisation (since 2 March 2026)', () => {
    it('given an app the marketplace does not allow there, then 4011 whatever it carries', () => {
      addSimulated(meeting, 'alice-p', 'Alice', NOW, 'alice');
      assert.equal(refused(join({ signature: sign(closed), obfToken: obf('alice', closed) })), 4011);
    });

    it('given an allowed app without a token, then 4012 (anonymous joins are not allowed)', () => {
      assert.equal(refused(join({ signature: sign(vendor) })), 4012);
    });

    it('given an OBF token while its user is absent, then 4017; once the user is in, it joins on the user’s behalf', () => {
      const token = obf('alice');
      assert.equal(refused(join({ signature: sign(vendor), obfToken: token })), 4017);
      addSimulated(meeting, 'alice-p', 'Alice', NOW, 'alice');
      const joined = join({ signature: sign(vendor), obfToken: token });
      assert.ok(joined.ok);
      assert.equal(joined.participant.authorized_by, 'alice');
    });

    it('given an OBF token used once, of another app, of another meeting, expired or revoked, then 4014 or 4015', () => {
      addSimulated(meeting, 'alice-p', 'Alice', NOW, 'alice');
      const token = obf('alice');
      assert.ok(join({ signature: sign(vendor), obfToken: token }).ok);
      assert.equal(refused(join({ signature: sign(vendor), obfToken: token })), 4014, 'single use');
      const other = identity.createApp({ name: 'Other', organisation: 'acme', external: true });
      assert.equal(refused(join({ signature: sign(vendor), obfToken: obf('alice', other) })), 4014, 'it authorises another app');
      assert.equal(refused(join({ signature: sign(vendor), obfToken: obf('alice', vendor, '555555555') })), 4015);
      assert.equal(refused(join({ signature: sign(vendor, 0, NOW + 120_000), obfToken: obf('alice', vendor, MEETING, 60) }, NOW + 120_000)), 4014, 'expired');
      const revoked = obf('alice');
      identity.revoke({ token: revoked });
      assert.equal(refused(join({ signature: sign(vendor), obfToken: revoked })), 4014);
    });

    it('given an app in on a user’s behalf, when the user leaves, then the platform ends its session (authorized_user_left)', () => {
      const alice = addSimulated(meeting, 'alice-p', 'Alice', NOW, 'alice');
      const joined = join({ signature: sign(vendor), obfToken: obf('alice') });
      assert.ok(joined.ok);
      leave(meeting, alice.participant_id, NOW + 1000);
      const bot = participant(meeting, joined.participant.participant_id);
      assert.equal(bot.state, 'removed');
      assert.equal(bot.end_reason, 'authorized_user_left');
    });

    it('given both an OBF token and a ZAK, then 3636 (the SDK takes one of them)', () => {
      const zak = identity.issue({ type: 'zak', user_id: 'hank' }, NOW).token;
      assert.equal(refused(join({ signature: sign(vendor), obfToken: obf('alice'), zak })), 3636);
    });
  });

  describe('ZAK', () => {
    it('given the host’s ZAK and role 1, then the bot starts the meeting the host has not started, and is in the call', () => {
      const waiting = createMeeting('223456789', { platform: 'vc', lobby: true, host_present: false, organisation: 'host-org', host_user_id: 'hank' }, NOW);
      meeting = waiting;
      const zak = identity.issue({ type: 'zak', user_id: 'hank' }, NOW).token;
      const p = openPage(meeting, 'zak-bot', NOW);
      const started = sdkJoin(meeting, identity, p.participant_id, { signature: sign(vendor, 1, NOW, '223456789'), meetingNumber: '223456789', userName: 'Bot', zak }, () => true, NOW);
      assert.ok(started.ok);
      assert.equal(meeting.host_present, true);
      assert.equal(started.participant.state, 'in_call');
    });

    it('given role 1 without the host’s ZAK, then 3003 (not the host)', () => {
      const zak = identity.issue({ type: 'zak', user_id: 'alice' }, NOW).token;
      assert.equal(refused(join({ signature: sign(vendor, 1), zak })), 3003);
      assert.equal(refused(join({ signature: sign(own, 1) })), 3003);
    });
  });

  it('every page in the call sees the notice banner: the names of the apps that signed the joins in it', () => {
    const person = openPage(meeting, 'person', NOW);
    person.state = 'in_call';
    assert.deepEqual(pageView(meeting, 'person', 0, NOW).apps, []);
    assert.ok(join({ signature: sign(own) }).ok);
    assert.deepEqual(pageView(meeting, 'person', 0, NOW).apps, ['Host Org Notes']);
  });
});
