import * as t from 'io-ts';

/** The platforms whose bots sign in with a stored login: tm (organisation accounts) and mt (SAML single sign-on). */
export const LoginPlatform = t.keyof({ tm: null, mt: null });
export type LoginPlatform = t.TypeOf<typeof LoginPlatform>;

/**
 * Concurrent meetings one login may be in (docs/decisions.md "Issue 20"). Both platforms let one account be
 * in a call from more than one client at once (a second device, another browser), and neither documents a
 * higher number for one account in several meetings; a login in many meetings at once also shows the same
 * person in all of them. Two sessions per account on both: a person's own use plus one, pools for more.
 * Recorded on each LoginCreated, so that a later change of the default never changes an existing login.
 */
export const SESSION_CAPACITY: Readonly<Record<LoginPlatform, number>> = { tm: 2, mt: 2 };

export const workspaceStreamName = (platform: LoginPlatform, workspaceId: string): string => `${platform}-workspace-${workspaceId}`;
export const loginStreamName = (platform: LoginPlatform, credentialId: string): string => `${platform}-login-${credentialId}`;
/** A team's pool facts of one platform (saturations): `tm-login-pool-<team>`. */
export const loginPoolStreamName = (platform: LoginPlatform, teamId: string): string => `${platform}-login-pool-${teamId}`;

/** active: usable; invalid: the platform refused it (pools skip it) until a PATCH re-enables it. */
export const CredentialState = t.keyof({ active: null, invalid: null });
export type CredentialState = t.TypeOf<typeof CredentialState>;

/** What went wrong, kept on the login or workspace as the spec's `failure_data`. */
export const FailureData = t.type({ code: t.string, reason: t.string, bot_id: t.union([t.string, t.null]) });
export type FailureData = t.TypeOf<typeof FailureData>;
