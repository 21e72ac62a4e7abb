import { randomUUID } from 'node:crypto';
import type * as E from 'fp-ts/Either';
import { KeyDestroyedError, type CredentialSeals } from '../../adapters/key-vault/port';
import type { VcPlatform } from '../../adapters/vc-platform/port';
import type { CreatedBy } from '../../domain/bot/bot-events';
import type { Sealed } from '../../domain/codec-helpers';
import {
  vcCredentialDecider,
  type VcCredentialCommand,
  type VcCredentialRejection,
  type VcCredentialState,
} from '../../domain/vc-credentials/vc-credential-decider';
import { VcCredentialEvent, vcCredentialStreamName, type OAuthTokens } from '../../domain/vc-credentials/vc-credential-events';
import { nameBasedUuid } from '../calendar-commands';
import type { CommandDeps } from '../command-deps';
import { handleCommand, loadState, type Handled } from '../handle-command';

/** What the vc credential commands need: the log, the credentials' keys, and the platform's OAuth and REST API. */
export interface VcCredentialDeps {
  readonly commands: CommandDeps;
  readonly sealer: CredentialSeals;
  readonly platform: VcPlatform;
}

export type VcCredentialResult = E.Either<VcCredentialRejection, Handled<VcCredentialEvent, VcCredentialState>>;

export const handleVcCredentialCommand = (deps: Pick<CommandDeps, 'eventStore'>, credentialId: string, command: VcCredentialCommand): Promise<VcCredentialResult> =>
  handleCommand(deps.eventStore, vcCredentialStreamName(credentialId), vcCredentialDecider, VcCredentialEvent, command);

export const loadVcCredential = (deps: Pick<CommandDeps, 'eventStore'>, credentialId: string): Promise<VcCredentialState> =>
  loadState(deps.eventStore, vcCredentialStreamName(credentialId), vcCredentialDecider, VcCredentialEvent);

/**
 * One connection per vc user and team: authorising the same user again reaches the same credential
 * (re-authorisation), and `credential_user_id` finds it without a lookup table.
 */
export const oauthCredentialIdOf = (teamId: string, vcUserId: string): string => nameBasedUuid('vc-oauth-credential', teamId, vcUserId);

/** A team has one set of SDK credentials: storing them again replaces them. */
export const sdkCredentialIdOf = (teamId: string): string => nameBasedUuid('vc-sdk-credential', teamId);

/** The credential's key if it has one, else a new one; what the command seals is sealed with it. */
export const keyIdFor = (state: VcCredentialState): string => state.current?.key_id ?? randomUUID();

export const sealTokens = async (sealer: CredentialSeals, keyId: string, grant: { access_token: string; refresh_token: string }, expiresAt: string): Promise<OAuthTokens> => ({
  access_token: await sealer.seal(keyId, grant.access_token),
  refresh_token: await sealer.seal(keyId, grant.refresh_token),
  access_expires_at: expiresAt,
});

/**
 * Seals with the credential's key and records; when a deletion destroyed that key in between (the
 * decider refuses it, or the vault no longer has it), once more with a new key.
 */
export const recordSealed = async (
  deps: VcCredentialDeps,
  credentialId: string,
  command: (keyId: string) => Promise<VcCredentialCommand>,
): Promise<VcCredentialResult> => {
  for (let attempt = 1; ; attempt++) {
    const keyId = keyIdFor(await loadVcCredential(deps.commands, credentialId));
    let result: VcCredentialResult;
    try {
      result = await handleVcCredentialCommand(deps.commands, credentialId, await command(keyId));
    } catch (err) {
      if (!(err instanceof KeyDestroyedError) || attempt >= 2) throw err;
      continue;
    }
    if (result._tag === 'Left' && result.left.code === 'KEY_NOT_CURRENT' && attempt < 2) continue;
    return result;
  }
};

export type { CreatedBy, Sealed };
