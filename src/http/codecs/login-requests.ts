import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { ApiError } from '../api-error';
import { decodeWith, email, isPlainObject, jsonObject, leaf, nullable, oneOf, str, strictObject, withDefault } from './codec-kit';
import { uuid } from './bot-configs';

/**
 * The spec's tm workspace `domain`: 1 to 253 characters, lower-case letters, digits, dots and hyphens,
 * ending in a dot and at least two lower-case letters (the tenant's primary or a verified domain). The same
 * rule for an mt workspace's Google Workspace domain.
 */
const DOMAIN = /^[a-z0-9.-]*\.[a-z]{2,}$/;
export const WorkspaceDomain = leaf<string>('domain', (u) => {
  if (typeof u !== 'string') return E.left('must be string');
  if (u.length < 1 || u.length > 253) return E.left('must have 1 to 253 characters');
  return DOMAIN.test(u) ? E.right(u) : E.left('must be lower-case letters, digits, dots and hyphens, ending in a dot and at least 2 lower-case letters');
});

const Name = str(1, 100);

export const WorkspaceRequest = strictObject('workspace_request', {
  domain: WorkspaceDomain,
  extra: nullable(jsonObject),
  name: nullable(Name),
});
export type WorkspaceRequest = t.TypeOf<typeof WorkspaceRequest>;

export const TmLoginRequest = strictObject('tm_login_request', {
  email,
  email_group: nullable(email),
  extra: nullable(jsonObject),
  name: Name,
  password: str(1, 1024),
  workspace_id: uuid,
});

/** An mt login names an account of the workspace's domain: no password, our identity provider signs it in. */
export const MtLoginRequest = strictObject('mt_login_request', {
  email,
  email_group: nullable(email),
  extra: nullable(jsonObject),
  name: Name,
  workspace_id: uuid,
});

export interface LoginRequest {
  readonly email: string;
  readonly email_group: string | null;
  readonly extra: Record<string, unknown> | null;
  readonly name: string;
  readonly password: string | null;
  readonly workspace_id: string;
}

export const decodeLoginRequest = (platform: 'tm' | 'mt', body: unknown): E.Either<ApiError, LoginRequest> =>
  platform === 'tm'
    ? decodeWith(TmLoginRequest, 'body', body)
    : E.map((r: t.TypeOf<typeof MtLoginRequest>): LoginRequest => ({ ...r, password: null }))(decodeWith(MtLoginRequest, 'body', body));

/** `state` can only be asked to be `active` again (re-enable); `invalid` is the platform's verdict, never the caller's. */
const Reenable = oneOf(['active'] as const);

const LoginPatchBody = (platform: 'tm' | 'mt') =>
  strictObject('login_patch', {
    name: withDefault(Name, () => undefined),
    email_group: nullable(email),
    extra: nullable(jsonObject),
    state: withDefault(Reenable, () => undefined),
    ...(platform === 'tm' ? { password: withDefault(str(1, 1024), () => undefined) } : {}),
  });

/** Only the fields present change; `email_group: null` takes the login out of its pool, `extra: null` clears it. */
export interface LoginPatch {
  readonly name?: string;
  readonly email_group?: string | null;
  readonly extra?: Record<string, unknown> | null;
  readonly password?: string;
  readonly reenable: boolean;
}

const present = (body: unknown, key: string): boolean => isPlainObject(body) && Object.prototype.hasOwnProperty.call(body, key);

export const decodeLoginPatch = (platform: 'tm' | 'mt', body: unknown): E.Either<ApiError, LoginPatch> =>
  E.map((p: { name?: string; email_group: string | null; extra: Record<string, unknown> | null; state?: 'active'; password?: string }): LoginPatch => ({
    ...(p.name !== undefined ? { name: p.name } : {}),
    ...(present(body, 'email_group') ? { email_group: p.email_group === null ? null : p.email_group.toLowerCase() } : {}),
    ...(present(body, 'extra') ? { extra: p.extra } : {}),
    ...(p.password !== undefined ? { password: p.password } : {}),
    reenable: p.state === 'active',
  }))(decodeWith(LoginPatchBody(platform), 'body', body) as E.Either<ApiError, never>);

const WorkspacePatchBody = strictObject('workspace_patch', {
  name: withDefault(Name, () => undefined),
  extra: nullable(jsonObject),
  state: withDefault(Reenable, () => undefined),
});

export interface WorkspacePatch {
  readonly name?: string;
  readonly extra?: Record<string, unknown> | null;
  readonly reenable: boolean;
}

export const decodeWorkspacePatch = (body: unknown): E.Either<ApiError, WorkspacePatch> =>
  E.map((p: t.TypeOf<typeof WorkspacePatchBody>): WorkspacePatch => ({
    ...(p.name !== undefined ? { name: p.name } : {}),
    ...(present(body, 'extra') ? { extra: p.extra } : {}),
    reenable: p.state === 'active',
  }))(decodeWith(WorkspacePatchBody, 'body', body));
