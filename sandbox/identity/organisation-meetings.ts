/**
 * Meetings for one organisation only (replicas with identities): `organisation_only: "<domain>"` in a create
 * request; a page joins such a meeting only signed in with an account of that organisation (CONTRACT.md,
 * "Identities"). Pure rules: meeting-state.ts refuses with what they say.
 */

/** A signed-in page's account (replica identities): it joins under the account's name, guest rules aside. */
export interface JoinIdentity {
  readonly email: string;
  readonly display_name: string;
  readonly organisation: string;
}

/** What is wrong with a create request's `organisation_only`; null when it is absent or a lower-case domain. */
export const organisationOnlyProblem = (value: unknown): string | null =>
  value === undefined || value === null || (typeof value === 'string' && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(value))
    ? null
    : 'organisation_only must be a lower-case domain such as contoso.com';

/** Why `identity` (null: a guest) may not join a meeting of `organisationOnly`; null when it may. */
export const outsiderRefusal = (organisationOnly: string | null, identity: JoinIdentity | null): string | null =>
  organisationOnly === null || identity?.organisation === organisationOnly ? null : `This meeting is only for signed-in members of ${organisationOnly}`;
