import assert from 'node:assert/strict';
import {
  accessTokenUsable,
  type ConnectOAuthCredential,
  type StoreSdkCredential,
  vcCredentialDecider,
} from '../../src/domain/vc-credentials/vc-credential-decider';
import { VcCredentialEvent, type OAuthTokens } from '../../src/domain/vc-credentials/vc-credential-events';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(vcCredentialDecider, VcCredentialEvent);

const T0 = '2026-03-03T09:00:00.000Z';
const ID = 'cred-1';
const TEAM = 'team-1';
const KEY = 'key-1';
const createdBy = { key_id: 'api-key-1', api_key: { sealed: 'v1.a.b.key' } };
const tokens = (n: number, expires = at(T0, { h: 1 })): OAuthTokens => ({
  access_token: { sealed: `v1.a.b.access${n}` },
  refresh_token: { sealed: `v1.a.b.refresh${n}` },
  access_expires_at: expires,
});
const grant = (n: number) => ({
  client_id: 'client-1',
  client_secret: { sealed: `v1.a.b.secret${n}` },
  redirect_uri: 'https://app.example.com/oauth/callback',
  vc_user_id: 'KdYKjnimT4KPd8KKdQt9FQ',
  vc_account_id: 'acct-1',
  scopes: 'user:read:token user:read:user',
  tokens: tokens(n),
});

const connect = (now: string, n = 1, key_id = KEY): ConnectOAuthCredential => ({
  type: 'ConnectOAuthCredential', credential_id: ID, team_id: TEAM, key_id, created_by: createdBy, ...grant(n), now,
});
const connected = (now: string, n = 1, key_id = KEY): VcCredentialEvent => ({
  type: 'VcOAuthCredentialConnected', data: { credential_id: ID, team_id: TEAM, key_id, created_by: createdBy, ...grant(n), at: now },
});
const reauthorised = (now: string, n: number): VcCredentialEvent => ({ type: 'VcOAuthCredentialReauthorised', data: { credential_id: ID, ...grant(n), at: now } });
const refreshed = (now: string, n: number): VcCredentialEvent => ({ type: 'VcOAuthTokensRefreshed', data: { credential_id: ID, tokens: tokens(n), at: now } });
const invalidated = (now: string, reason: string): VcCredentialEvent => ({ type: 'VcCredentialInvalidated', data: { credential_id: ID, team_id: TEAM, reason, at: now } });
const deleted = (now: string, key_id = KEY): VcCredentialEvent => ({ type: 'VcCredentialDeleted', data: { credential_id: ID, team_id: TEAM, key_id, at: now } });

const storeSdk = (now: string, secret = 'one', key_id = KEY): StoreSdkCredential => ({
  type: 'StoreSdkCredential', credential_id: ID, team_id: TEAM, key_id, created_by: createdBy, sdk_id: 'sdk-key', sdk_secret: { sealed: `v1.a.b.${secret}` }, name: 'Acme Notes', now,
});
const sdkStored = (now: string, secret = 'one', key_id = KEY): VcCredentialEvent => ({
  type: 'VcSdkCredentialStored',
  data: { credential_id: ID, team_id: TEAM, key_id, created_by: createdBy, sdk_id: 'sdk-key', sdk_secret: { sealed: `v1.a.b.${secret}` }, name: 'Acme Notes', at: now },
});

describe('vc credential decider (OAuth connections and SDK credentials)', () => {
  describe('OAuth connections', () => {
    it('given nothing, when a code was exchanged, then the connection is recorded with its sealed tokens', () => {
      spec.given([]).when(connect(T0)).then([connected(T0)]);
    });

    it('given a connection, when the same user authorises again, then it is re-authorised (same id, new tokens)', () => {
      spec.given([connected(T0)]).when(connect(at(T0, { h: 1 }), 2)).then([reauthorised(at(T0, { h: 1 }), 2)]);
    });

    it('given an invalid connection, when the user authorises again, then it is active again without the reason, created when it was first', () => {
      const history = [connected(T0), invalidated(at(T0, { h: 1 }), 'refresh refused: invalid_grant'), reauthorised(at(T0, { h: 2 }), 2)];
      const current = stateAfter(vcCredentialDecider, history).current;
      assert.equal(current?.kind, 'oauth');
      if (current?.kind !== 'oauth') return;
      assert.equal(current.state, 'active');
      assert.equal(current.invalid_reason, null);
      assert.equal(current.created_at, T0);
      assert.equal(current.updated_at, at(T0, { h: 2 }));
      assert.deepEqual(current.tokens, tokens(2));
    });

    it('given a connection, when its tokens are sealed with another key, then it is refused (nothing sealed could be read)', () => {
      spec.given([connected(T0)]).when(connect(at(T0, { m: 1 }), 2, 'key-2')).thenRejects({ code: 'KEY_NOT_CURRENT' });
    });

    it('given an active connection, when a refresh gave new tokens, then they are recorded and replace the old ones', () => {
      spec.given([connected(T0)]).when({ type: 'RecordOAuthRefresh', credential_id: ID, tokens: tokens(2), now: at(T0, { h: 1 }) }).then([refreshed(at(T0, { h: 1 }), 2)]);
      const current = stateAfter(vcCredentialDecider, [connected(T0), refreshed(at(T0, { h: 1 }), 2)]).current;
      assert.deepEqual(current?.kind === 'oauth' && current.tokens, tokens(2));
    });

    it('given an invalid or deleted connection, when a late refresh arrives, then nothing is recorded', () => {
      const refresh = { type: 'RecordOAuthRefresh' as const, credential_id: ID, tokens: tokens(2), now: at(T0, { h: 1 }) };
      spec.given([connected(T0), invalidated(at(T0, { m: 5 }), 'x')]).when(refresh).thenNothing();
      spec.given([connected(T0), deleted(at(T0, { m: 5 }))]).when(refresh).thenNothing();
    });

    it('given an active connection, when the platform refused it, then it turns invalid with the reason', () => {
      spec
        .given([connected(T0)])
        .when({ type: 'InvalidateVcCredential', credential_id: ID, reason: 'the refresh token was refused (invalid_grant)', now: at(T0, { h: 1 }) })
        .then([invalidated(at(T0, { h: 1 }), 'the refresh token was refused (invalid_grant)')]);
    });

    it('given an invalid connection, when it is refused again, then the first reason stays', () => {
      spec.given([connected(T0), invalidated(at(T0, { h: 1 }), 'first')]).when({ type: 'InvalidateVcCredential', credential_id: ID, reason: 'second', now: at(T0, { h: 2 }) }).thenNothing();
    });
  });

  describe('the team’s SDK credentials', () => {
    it('given nothing, when they are stored, then they are recorded with the secret sealed', () => {
      spec.given([]).when(storeSdk(T0)).then([sdkStored(T0)]);
    });

    it('given stored credentials, when new ones are stored, then they replace them and keep the creation time', () => {
      const history = [sdkStored(T0), sdkStored(at(T0, { h: 1 }), 'two')];
      const current = stateAfter(vcCredentialDecider, history).current;
      assert.equal(current?.kind === 'sdk' && current.sdk_secret.sealed, 'v1.a.b.two');
      assert.equal(current?.created_at, T0);
      assert.equal(current?.updated_at, at(T0, { h: 1 }));
    });
  });

  describe('deletion', () => {
    it('given a credential, when it is deleted, then the deletion names the key that was destroyed', () => {
      spec.given([connected(T0)]).when({ type: 'DeleteVcCredential', credential_id: ID, now: at(T0, { h: 1 }) }).then([deleted(at(T0, { h: 1 }))]);
    });

    it('given nothing or a deleted credential, when it is deleted, then it is not found', () => {
      spec.given([]).when({ type: 'DeleteVcCredential', credential_id: ID, now: T0 }).thenRejects({ code: 'VC_CREDENTIAL_NOT_FOUND' });
      spec.given([connected(T0), deleted(at(T0, { m: 1 }))]).when({ type: 'DeleteVcCredential', credential_id: ID, now: at(T0, { m: 2 }) }).thenRejects({ code: 'VC_CREDENTIAL_NOT_FOUND' });
    });

    it('given a deleted credential, when the same user connects again with a new key, then it is a new connection', () => {
      spec.given([connected(T0), deleted(at(T0, { m: 1 }))]).when(connect(at(T0, { m: 2 }), 2, 'key-2')).then([connected(at(T0, { m: 2 }), 2, 'key-2')]);
    });

    it('given a deleted credential, when anything is sealed with its destroyed key, then it is refused', () => {
      spec.given([connected(T0), deleted(at(T0, { m: 1 }))]).when(connect(at(T0, { m: 2 }), 2)).thenRejects({ code: 'KEY_NOT_CURRENT' });
      spec.given([sdkStored(T0), deleted(at(T0, { m: 1 }))]).when(storeSdk(at(T0, { m: 2 }))).thenRejects({ code: 'KEY_NOT_CURRENT' });
    });
  });

  describe('access tokens', () => {
    it('are used until a minute before they expire, then refreshed', () => {
      const t = tokens(1, at(T0, { h: 1 }));
      assert.equal(accessTokenUsable(t, Date.parse(at(T0, { m: 58 }))), true);
      assert.equal(accessTokenUsable(t, Date.parse(at(T0, { m: 59, s: 1 }))), false);
    });
  });
});
