import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { CredentialSeals } from '../../adapters/key-vault/port';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { ApiError, conflict, notFound, validationError } from '../api-error';

export interface SignedInLoginRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  /** seals the key that created a login or workspace (its webhooks carry it) */
  readonly secretBox: SecretBox;
  /** passwords and private signing keys: each login's and workspace's own key from the key vault (login-secrets.ts) */
  readonly sealer: CredentialSeals;
  /** how bots and Google reach the service (the SSO profile's URLs); known once it listens */
  readonly publicUrl: () => string;
}

export const ok = (data: unknown) => ({ success: true, data });

export const workspaceNotFound = (platform: string, details?: string) =>
  notFound('FST_ERR_WORKSPACE_NOT_FOUND', `${platform} workspace not found`, details);
export const loginNotFound = (platform: string) => notFound('FST_ERR_LOGIN_NOT_FOUND', `${platform} login not found`);

/** The login and workspace deciders' refusals, as the API answers them. */
export const loginRefusal = (platform: string, refusal: { readonly code: string; readonly message: string }): ApiError => {
  switch (refusal.code) {
    case 'LOGIN_NOT_FOUND':
      return loginNotFound(platform);
    case 'WORKSPACE_NOT_FOUND':
      return workspaceNotFound(platform);
    case 'LOGIN_DELETING':
      return conflict('FST_ERR_LOGIN_DELETING', refusal.message);
    case 'WORKSPACE_IN_USE':
      return conflict('FST_ERR_WORKSPACE_IN_USE', refusal.message);
    case 'NO_PASSWORD':
      return validationError('body/password', 'is not an allowed property (an mt login has no password)');
    default:
      return new ApiError({ status: 500, code: 'FST_ERR_INTERNAL', message: `Unexpected refusal ${refusal.code}` });
  }
};

/** A PATCH that names no field would change nothing: refused, so a typo'd client learns it. */
export const nothingToChange = (fields: readonly string[]) => validationError('body', `must have at least one of ${fields.join(', ')}`);
