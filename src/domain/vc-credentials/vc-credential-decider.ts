import * as E from 'fp-ts/Either';
import type { CreatedBy } from '../bot/bot-events';
import type { Sealed } from '../codec-helpers';
import type { Decider } from '../decider';
import type { OAuthTokens, VcCredentialEvent } from './vc-credential-events';

/**
 * A stored vc credential: an OAuth connection of a vc user, or the team's SDK credentials. The commands
 * carry their secrets already sealed with the credential's key (`key_id`); the decider checks that the key
 * is the credential's own and was not destroyed by a deletion in between (a value sealed with a destroyed
 * key could never be read again).
 */

interface OAuthGrant {
  readonly client_id: string;
  readonly client_secret: Sealed;
  readonly redirect_uri: string;
  readonly vc_user_id: string;
  readonly vc_account_id: string;
  readonly scopes: string;
  readonly tokens: OAuthTokens;
}

/** An authorisation code was exchanged: a new connection, or the same user's connection authorised again. */
export interface ConnectOAuthCredential extends OAuthGrant {
  readonly type: 'ConnectOAuthCredential';
  readonly credential_id: string;
  readonly team_id: string;
  readonly key_id: string;
  readonly created_by: CreatedBy;
  readonly now: string;
}

export interface RecordOAuthRefresh {
  readonly type: 'RecordOAuthRefresh';
  readonly credential_id: string;
  readonly tokens: OAuthTokens;
  readonly now: string;
}

export interface InvalidateVcCredential {
  readonly type: 'InvalidateVcCredential';
  readonly credential_id: string;
  readonly reason: string;
  readonly now: string;
}

export interface StoreSdkCredential {
  readonly type: 'StoreSdkCredential';
  readonly credential_id: string;
  readonly team_id: string;
  readonly key_id: string;
  readonly created_by: CreatedBy;
  readonly sdk_id: string;
  readonly sdk_secret: Sealed;
  readonly name: string | null;
  readonly now: string;
}

export interface DeleteVcCredential {
  readonly type: 'DeleteVcCredential';
  readonly credential_id: string;
  readonly now: string;
}

export type VcCredentialCommand = ConnectOAuthCredential | RecordOAuthRefresh | InvalidateVcCredential | StoreSdkCredential | DeleteVcCredential;

export interface VcCredentialRejection {
  readonly code: 'VC_CREDENTIAL_NOT_FOUND' | 'KEY_NOT_CURRENT';
  readonly message: string;
}

interface Stored {
  readonly credential_id: string;
  readonly team_id: string;
  readonly key_id: string;
  readonly created_by: CreatedBy;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface OAuthCredential extends Stored, OAuthGrant {
  readonly kind: 'oauth';
  readonly state: 'active' | 'invalid';
  readonly invalid_reason: string | null;
  readonly invalidated_at: string | null;
  readonly refreshed_at: string | null;
}

export interface SdkCredential extends Stored {
  readonly kind: 'sdk';
  readonly sdk_id: string;
  readonly sdk_secret: Sealed;
  readonly name: string | null;
}

export type VcCredential = OAuthCredential | SdkCredential;

export interface VcCredentialState {
  readonly current: VcCredential | null;
  /** keys of deleted versions of this credential: destroyed, never to seal anything again */
  readonly destroyedKeys: readonly string[];
}

const initialState = (): VcCredentialState => ({ current: null, destroyedKeys: [] });

const accept = (...events: VcCredentialEvent[]) => E.right<VcCredentialRejection, readonly VcCredentialEvent[]>(events);
const reject = (code: VcCredentialRejection['code'], message: string) => E.left<VcCredentialRejection, readonly VcCredentialEvent[]>({ code, message });

/** A present credential keeps its key for good; a new one takes a key never destroyed here. */
const keyProblem = (keyId: string, { current, destroyedKeys }: VcCredentialState) => {
  if (current !== null && current.key_id !== keyId) return reject('KEY_NOT_CURRENT', 'The credential is sealed with another key: seal with its own key');
  if (destroyedKeys.includes(keyId)) return reject('KEY_NOT_CURRENT', 'This key was destroyed with a deleted credential');
  return null;
};

const grantOf = (c: OAuthGrant): OAuthGrant => ({
  client_id: c.client_id,
  client_secret: c.client_secret,
  redirect_uri: c.redirect_uri,
  vc_user_id: c.vc_user_id,
  vc_account_id: c.vc_account_id,
  scopes: c.scopes,
  tokens: c.tokens,
});

const connect = (command: ConnectOAuthCredential, state: VcCredentialState) => {
  const problem = keyProblem(command.key_id, state);
  if (problem) return problem;
  if (state.current?.kind === 'oauth') {
    return accept({ type: 'VcOAuthCredentialReauthorised', data: { credential_id: command.credential_id, ...grantOf(command), at: command.now } });
  }
  const { credential_id, team_id, key_id, created_by, now } = command;
  return accept({ type: 'VcOAuthCredentialConnected', data: { credential_id, team_id, key_id, created_by, ...grantOf(command), at: now } });
};

/** A refresh that raced with a deletion or an invalidation records nothing: the credential is not in use. */
const refresh = (command: RecordOAuthRefresh, { current }: VcCredentialState) =>
  current?.kind === 'oauth' && current.state === 'active'
    ? accept({ type: 'VcOAuthTokensRefreshed', data: { credential_id: command.credential_id, tokens: command.tokens, at: command.now } })
    : accept();

/** Only an active credential turns invalid: the first reason is kept until it is authorised again. */
const invalidate = (command: InvalidateVcCredential, { current }: VcCredentialState) =>
  current?.kind === 'oauth' && current.state === 'active'
    ? accept({ type: 'VcCredentialInvalidated', data: { credential_id: command.credential_id, team_id: current.team_id, reason: command.reason, at: command.now } })
    : accept();

const storeSdk = (command: StoreSdkCredential, state: VcCredentialState) => {
  const problem = keyProblem(command.key_id, state);
  if (problem) return problem;
  const { credential_id, team_id, key_id, created_by, sdk_id, sdk_secret, name, now } = command;
  return accept({ type: 'VcSdkCredentialStored', data: { credential_id, team_id, key_id, created_by, sdk_id, sdk_secret, name, at: now } });
};

const remove = (command: DeleteVcCredential, { current }: VcCredentialState) =>
  current === null
    ? reject('VC_CREDENTIAL_NOT_FOUND', 'No vc credential with this id exists')
    : accept({ type: 'VcCredentialDeleted', data: { credential_id: command.credential_id, team_id: current.team_id, key_id: current.key_id, at: command.now } });

const decide = (command: VcCredentialCommand, state: VcCredentialState) => {
  switch (command.type) {
    case 'ConnectOAuthCredential':
      return connect(command, state);
    case 'RecordOAuthRefresh':
      return refresh(command, state);
    case 'InvalidateVcCredential':
      return invalidate(command, state);
    case 'StoreSdkCredential':
      return storeSdk(command, state);
    case 'DeleteVcCredential':
      return remove(command, state);
  }
};

const evolve = (state: VcCredentialState, event: VcCredentialEvent): VcCredentialState => {
  const { current } = state;
  switch (event.type) {
    case 'VcOAuthCredentialConnected': {
      const { credential_id, team_id, key_id, created_by, at } = event.data;
      return {
        ...state,
        current: { kind: 'oauth', credential_id, team_id, key_id, created_by, ...grantOf(event.data), state: 'active', invalid_reason: null, invalidated_at: null, refreshed_at: null, created_at: at, updated_at: at },
      };
    }
    case 'VcOAuthCredentialReauthorised':
      return current?.kind === 'oauth'
        ? { ...state, current: { ...current, ...grantOf(event.data), state: 'active', invalid_reason: null, invalidated_at: null, updated_at: event.data.at } }
        : state;
    case 'VcOAuthTokensRefreshed':
      return current?.kind === 'oauth' ? { ...state, current: { ...current, tokens: event.data.tokens, refreshed_at: event.data.at, updated_at: event.data.at } } : state;
    case 'VcCredentialInvalidated':
      return current?.kind === 'oauth'
        ? { ...state, current: { ...current, state: 'invalid', invalid_reason: event.data.reason, invalidated_at: event.data.at, updated_at: event.data.at } }
        : state;
    case 'VcSdkCredentialStored': {
      const { credential_id, team_id, key_id, created_by, sdk_id, sdk_secret, name, at } = event.data;
      const created_at = current?.kind === 'sdk' ? current.created_at : at;
      return { ...state, current: { kind: 'sdk', credential_id, team_id, key_id, created_by, sdk_id, sdk_secret, name, created_at, updated_at: at } };
    }
    case 'VcCredentialDeleted':
      return { current: null, destroyedKeys: [...state.destroyedKeys, event.data.key_id] };
  }
};

export const vcCredentialDecider: Decider<VcCredentialCommand, VcCredentialEvent, VcCredentialState, VcCredentialRejection> = { decide, evolve, initialState };

/** Whether an access token can still be used at `nowMs`, with a margin for the request it is for. */
export const accessTokenUsable = (tokens: OAuthTokens, nowMs: number, marginMs = 60_000): boolean => Date.parse(tokens.access_expires_at) - marginMs > nowMs;
