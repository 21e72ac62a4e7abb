import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { ApiError } from '../api-error';
import { decodeWith, email, isPlainObject, jsonObject, leaf, nullable, oneOf, str, strictObject, withDefault } from './codec-kit';
import { uuid } from './bot-configs';
import { explained } from './schema-notes';

/**
 * The spec's tm workspace `domain`: 1 to 253 characters, lower-case letters, digits, dots and hyphens,
 * ending in a dot and at least two lower-case letters (the tenant's primary or a verified domain). The same
 * rule for an mt workspace's Google Workspace domain.
 */
const DOMAIN = /^[a-z0-9.-]*\.[a-z]{2,}$/;
export const WorkspaceDomain = leaf<string>(
  'domain',
  (u) => {
    if (typeof u !== 'string') return E.left('must be string');
    if (u.length < 1 || u.length > 253) return E.left('must have 1 to 253 characters');
    return DOMAIN.test(u) ? E.right(u) : E.left('must be lower-case letters, digits, dots and hyphens, ending in a dot and at least 2 lower-case letters');
  },
  {
    type: 'string',
    minLength: 1,
    maxLength: 253,
    pattern: DOMAIN.source,
    description: "The tenant's primary or a verified domain (tm), the Google Workspace domain (mt): lower case (upper case is refused, not folded).",
  },
);

const Name = str(1, 100);

export const WorkspaceRequest = strictObject('workspace_request', {
  domain: WorkspaceDomain,
  extra: nullable(jsonObject),
  name: nullable(explained(Name, { description: 'Not unique within a team; not given: "Default Directory" (tm) or "Google Workspace" (mt).' })),
});

/** A login's pool: logins sharing it form one pool, compared without case (stored lower-case). */
const EmailGroup = nullable(explained(email, { description: 'Logins sharing this value form one pool (compared without case; stored lower-case).' }));

const Password = explained(str(1, 1024), { description: "The account's password: write-only, sealed with the login's own key, never returned.", writeOnly: true });
export type WorkspaceRequest = t.TypeOf<typeof WorkspaceRequest>;

const WorkspaceId = (platform: string) => explained(uuid, { description: `A ${platform} workspace of the team (404 \`FST_ERR_WORKSPACE_NOT_FOUND\` otherwise): create it first.` });

export const TmLoginRequest = strictObject('tm_login_request', {
  email: explained(email, { description: 'The organisation account the bot signs in as.' }),
  email_group: EmailGroup,
  extra: nullable(jsonObject),
  name: Name,
  password: Password,
  workspace_id: WorkspaceId('tm'),
});

/** An mt login names an account of the workspace's domain: no password, our identity provider signs it in. */
export const MtLoginRequest = strictObject('mt_login_request', {
  email: explained(email, { description: "An account of the workspace's domain (400 otherwise), which our identity provider signs in." }),
  email_group: EmailGroup,
  extra: nullable(jsonObject),
  name: Name,
  workspace_id: WorkspaceId('mt'),
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
const Reenable = explained(oneOf(['active'] as const), { description: '`active` re-enables it after it turned `invalid`; `invalid` cannot be asked for.' });

const PATCH_RULE = 'Only the fields given change; a body that names none is refused (400).';

export const LoginPatchBody = (platform: 'tm' | 'mt') =>
  strictObject(
    'login_patch',
    {
      name: withDefault(Name, () => undefined),
      email_group: nullable(explained(email, { description: 'The pool; `null` takes the login out of its pool.' })),
      extra: nullable(explained(jsonObject, { description: '`null` clears it.' })),
      state: withDefault(Reenable, () => undefined),
      ...(platform === 'tm' ? { password: withDefault(explained(Password, { description: 'A new password also re-enables an invalid login.' }), () => undefined) } : {}),
    },
    PATCH_RULE,
  );

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

export const WorkspacePatchBody = strictObject(
  'workspace_patch',
  {
    name: withDefault(Name, () => undefined),
    extra: nullable(explained(jsonObject, { description: '`null` clears it.' })),
    state: withDefault(Reenable, () => undefined),
  },
  PATCH_RULE,
);

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
