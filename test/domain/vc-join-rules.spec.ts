import assert from 'node:assert/strict';
import { legacyErrorString } from '../../src/domain/bot/legacy-error-strings';
import { obfRenewable, obfSourceName } from '../../src/domain/bot/vc-join';
import { chargeForOutcome } from '../../src/domain/team/charge-by-outcome';
import {
  meetingNumberOf,
  meetingPasscodeOf,
  sdkSignatureClaims,
  signatureClaimsProblem,
} from '../../src/domain/vc-credentials/sdk-signature-claims';
import { joinsThroughSdk, signingAppOf } from '../../src/domain/vc-credentials/signing-app';
import { judgeTokenAnswer } from '../../src/domain/vc-credentials/token-url-answer';

const NOW = Date.parse('2026-03-03T09:00:00.000Z');
const usage = (recorded: number, waiting: number) => ({ recorded_seconds: recorded, waiting_room_seconds: waiting });

describe('vc joins: the rules of the domain', () => {
  describe('the SDK signature (the platform’s documented claims)', () => {
    it('given a key, a meeting and a role, when claims are made now, then they are the documented ones with the shortest life the platform accepts', () => {
      const claims = sdkSignatureClaims('sdk-key', '1234567890', 0, NOW);
      const iat = Math.floor(NOW / 1000) - 30;
      assert.deepEqual(claims, { appKey: 'sdk-key', sdkKey: 'sdk-key', mn: '1234567890', role: 0, iat, exp: iat + 1800, tokenExp: iat + 1800 });
      assert.equal(signatureClaimsProblem(claims, NOW), null);
    });

    it('given claims, when they are checked as the platform checks them, then expired, too long, future or incomplete ones are refused', () => {
      const good = sdkSignatureClaims('k', '123456789', 1, NOW);
      assert.match(signatureClaimsProblem(good, NOW + 1800 * 1000) ?? '', /expired/);
      assert.match(signatureClaimsProblem({ ...good, exp: good.iat + 49 * 3600, tokenExp: good.iat + 49 * 3600 }, NOW) ?? '', /1800 s to 48 h/);
      assert.match(signatureClaimsProblem({ ...good, exp: good.iat + 600, tokenExp: good.iat + 600 }, NOW) ?? '', /1800 s to 48 h/);
      assert.match(signatureClaimsProblem({ ...good, iat: good.iat + 3600, exp: good.exp + 3600 }, NOW) ?? '', /future/);
      assert.match(signatureClaimsProblem({ ...good, role: 2 }, NOW) ?? '', /role/);
      assert.match(signatureClaimsProblem({ ...good, appKey: undefined, sdkKey: undefined }, NOW) ?? '', /appKey/);
      assert.match(signatureClaimsProblem({ ...good, mn: undefined }, NOW) ?? '', /meeting number/);
    });

    it('given meeting URLs, when their number and passcode are read, then every link form gives them', () => {
      assert.equal(meetingNumberOf('https://zoom.us/j/1234567890?pwd=abc.1'), '1234567890');
      assert.equal(meetingNumberOf('https://us05web.zoom.us/s/98765432101'), '98765432101');
      assert.equal(meetingNumberOf('https://app.zoom.us/wc/123456789/join'), '123456789');
      assert.equal(meetingNumberOf('https://zoom.us/wc/join/123456789'), '123456789');
      assert.equal(meetingNumberOf('https://vc.localhost:8443/j/123456789'), '123456789');
      assert.equal(meetingNumberOf('https://zoom.us/my/someone'), null);
      assert.equal(meetingPasscodeOf('https://zoom.us/j/1234567890?pwd=abc.1'), 'abc.1');
      assert.equal(meetingPasscodeOf('https://zoom.us/j/1234567890'), '');
    });
  });

  describe('which app signs (its name is what the notice banner shows)', () => {
    const app = (k: string) => ({ sdk_key: k, secret: `${k}-secret` });

    it('given credentials from every source, then the bot’s own come first, then the connection’s app, the team’s, the service’s', () => {
      assert.equal(signingAppOf({ request: app('r'), connection: app('c'), team: app('t'), service: app('s') })?.source, 'request');
      assert.equal(signingAppOf({ request: null, connection: app('c'), team: app('t'), service: app('s') })?.source, 'connection');
      assert.equal(signingAppOf({ request: null, connection: null, team: app('t'), service: app('s') })?.sdk_key, 't');
      assert.deepEqual(signingAppOf({ request: null, connection: null, team: null, service: app('s') }), { source: 'service', sdk_key: 's', secret: 's-secret' });
    });

    it('given no credentials at all, then nothing signs, and only a join without tokens may go ahead (the web client)', () => {
      assert.equal(signingAppOf({ request: null, connection: null, team: null, service: null }), null);
      assert.equal(joinsThroughSdk(false, false), false);
      assert.equal(joinsThroughSdk(true, false), true, 'a token needs the SDK: without a signer that is CANNOT_GET_JWT_TOKEN');
      assert.equal(joinsThroughSdk(false, true), true);
    });
  });

  describe('the token URL’s answer (plain text, the raw token)', () => {
    const answer = (status: number, contentType: string | null, body: string) => judgeTokenAnswer({ status, contentType, body });

    it('given a plain-text token, then it is the token (surrounding whitespace dropped)', () => {
      assert.deepEqual(answer(200, 'text/plain; charset=utf-8', 'eyJhbGciOiJIUzI1NiJ9.eyJ0IjoxfQ.sig\n'), { ok: true, token: 'eyJhbGciOiJIUzI1NiJ9.eyJ0IjoxfQ.sig' });
      assert.deepEqual(answer(200, null, 'token-123'), { ok: true, token: 'token-123' });
    });

    it('given anything else, then it is refused saying what came back, never repeating it', () => {
      const secretPage = '<html><body>proxy 10.0.0.12 at internal.corp refused</body></html>';
      const cases: [ReturnType<typeof answer>, RegExp][] = [
        [answer(500, 'text/plain', 'boom'), /HTTP 500/],
        [answer(404, 'text/html', '<html>'), /HTTP 404/],
        [answer(200, 'text/plain', '   '), /empty body/],
        [answer(200, 'text/html', secretPage), /HTML page/],
        [answer(200, 'text/plain', secretPage), /HTML page/],
        [answer(200, 'application/json', '{"token":"abc"}'), /JSON body/],
        [answer(200, 'text/plain', '{"token":"abc"}'), /JSON body/],
        [answer(200, 'text/plain', 'two\nlines'), /several lines/],
        [answer(200, 'text/plain', 'x'.repeat(9000)), /longer than a token/],
        [answer(200, 'text/plain', 'tökén'), /characters/],
      ];
      for (const [judged, what] of cases) {
        assert.equal(judged.ok, false);
        if (judged.ok) continue;
        assert.match(judged.what, what);
        assert.doesNotMatch(judged.what, /10\.0\.0\.12|internal\.corp|abc/, 'what came back is described, not repeated');
      }
    });
  });

  describe('the OBF source', () => {
    it('a token given in the request cannot be renewed for a retry; a URL or a connection gives a fresh one each time', () => {
      assert.equal(obfRenewable({ kind: 'token', token: { sealed: 'x' } }), false);
      assert.equal(obfRenewable({ kind: 'token_url', url: 'https://x' }), true);
      assert.equal(obfRenewable({ kind: 'credential', credential_id: 'c' }), true);
      assert.equal(obfRenewable({ kind: 'credential_user', vc_user_id: 'u' }), true);
      assert.equal(obfSourceName({ kind: 'credential_user', vc_user_id: 'u' }), 'credential_user_id');
    });
  });

  describe('vc end codes: legacy strings and charging (spec)', () => {
    it('the vc failure codes map to the legacy strings the OBF reference names', () => {
      assert.equal(legacyErrorString('WAITING_FOR_AUTHORIZED_USER_TIMEOUT'), 'WaitingForHostTimeout');
      assert.equal(legacyErrorString('SDK_AUTH_FAILED'), 'VC_SDK_AUTH_FAILED');
      for (const code of ['VC_OBF_TOKEN_ERROR', 'VC_ACCESS_TOKEN_ERROR', 'CANNOT_GET_JWT_TOKEN', 'UNABLE_JOIN_EXTERNAL_MEETING', 'SET_VC_ID_AND_PWD_TOGETHER']) {
        assert.equal(legacyErrorString(code), 'CannotJoinMeeting', code);
      }
    });

    it('a vc failure charges nothing, even after a long wait for the authorised user (only the spec’s waiting-room codes charge the wait)', () => {
      for (const code of ['WAITING_FOR_AUTHORIZED_USER_TIMEOUT', 'VC_OBF_TOKEN_ERROR', 'VC_ACCESS_TOKEN_ERROR', 'SDK_AUTH_FAILED', 'CANNOT_GET_JWT_TOKEN', 'UNABLE_JOIN_EXTERNAL_MEETING']) {
        assert.equal(chargeForOutcome({ error_code: code, usage: usage(0, 200) }, { transcription: false }), 0, code);
      }
    });

    it('a bot that recorded until the authorised user left is charged its recording (a normal end)', () => {
      assert.equal(chargeForOutcome({ error_code: 'BOT_REMOVED', usage: usage(3600, 40) }, { transcription: false }), 1000);
    });
  });
});
