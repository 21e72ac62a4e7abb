import * as t from 'io-ts';
import { Sealed } from '../codec-helpers';

/**
 * How a vc bot joins, as the domain keeps it: where its On-Behalf-Of token comes from (one source at most,
 * the spec's three options, the third reachable by credential id or by the vc user id of the connection),
 * the ZAK token URL, and the caller's own SDK credentials (legacy `vc_sdk_id` + `vc_sdk_pwd`, sealed).
 * A sum type, so that "two OBF sources" cannot be represented: the HTTP codecs refuse it with 400 first.
 */
export const ObfSource = t.union([
  /** option 1: the caller's token, sealed */
  t.type({ kind: t.literal('token'), token: Sealed }),
  /** option 2: the service calls this URL at join time */
  t.type({ kind: t.literal('token_url'), url: t.string }),
  /** option 3: a stored OAuth credential, by its id (v2 `credential_id`) */
  t.type({ kind: t.literal('credential'), credential_id: t.string }),
  /** option 3: the team's OAuth credential of this vc user (v2 `credential_user_id`, legacy `vc_obf_token_user_id`) */
  t.type({ kind: t.literal('credential_user'), vc_user_id: t.string }),
]);
export type ObfSource = t.TypeOf<typeof ObfSource>;

export const OwnSdkCredentials = t.type({ sdk_id: t.string, sdk_secret: Sealed });
export type OwnSdkCredentials = t.TypeOf<typeof OwnSdkCredentials>;

const VcJoinShape = t.type({
  obf: t.union([ObfSource, t.null]),
  zak_token_url: t.union([t.string, t.null]),
  sdk: t.union([OwnSdkCredentials, t.null]),
});
export type VcJoin = t.TypeOf<typeof VcJoinShape>;

type Loose = Record<string, unknown>;
const isObject = (u: unknown): u is Loose => typeof u === 'object' && u !== null && !Array.isArray(u);
const given = (u: unknown): boolean => u !== undefined && u !== null;

/**
 * The first stored shape of the vc part: the v2 `vc_config` fields side by side (plus `sdk_id`/`sdk_pwd`),
 * each nullable. Its requests were validated to name one OBF source at most, taken in the v2 codec's order.
 */
export const vcJoinFromFlat = (flat: Loose): Loose => {
  const obf = given(flat.credential_id)
    ? { kind: 'credential', credential_id: flat.credential_id }
    : given(flat.credential_user_id)
      ? { kind: 'credential_user', vc_user_id: flat.credential_user_id }
      : given(flat.obf_token)
        ? { kind: 'token', token: flat.obf_token }
        : given(flat.obf_token_url)
          ? { kind: 'token_url', url: flat.obf_token_url }
          : null;
  return {
    obf,
    zak_token_url: flat.zak_token_url ?? null,
    sdk: given(flat.sdk_id) && given(flat.sdk_pwd) ? { sdk_id: flat.sdk_id, sdk_secret: flat.sdk_pwd } : null,
  };
};

/** Reads the current shape, or upcasts the first (flat) one on the way: events already written stay readable. */
export const VcJoinCodec = new t.Type<VcJoin, unknown, unknown>(
  'VcJoin',
  VcJoinShape.is,
  (u, c) => (isObject(u) && !('obf' in u) ? VcJoinShape.validate(vcJoinFromFlat(u), c) : VcJoinShape.validate(u, c)),
  t.identity,
);

/** Which of the spec's options the bot uses, by the names the APIs give them (for messages and the legacy view). */
export const obfSourceName = (source: ObfSource): string => {
  switch (source.kind) {
    case 'token':
      return 'obf_token';
    case 'token_url':
      return 'obf_token_url';
    case 'credential':
      return 'credential_id';
    case 'credential_user':
      return 'credential_user_id';
  }
};

/**
 * Whether a fresh token can be had for a retry: a URL and a stored connection give a new one each time, a
 * token given in the request is the only one there is (spec, "vc OBF behaviour of a running bot").
 */
export const obfRenewable = (source: ObfSource): boolean => source.kind !== 'token';

/** The legacy OBF reference's own default for `waiting_room_timeout` (seconds) when a legacy bot uses OBF. */
export const LEGACY_OBF_WAITING_ROOM_TIMEOUT = 200;
