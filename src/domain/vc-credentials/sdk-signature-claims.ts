/**
 * The claims of a Meeting SDK JWT signature, as the platform documents them (developers.zoom.us
 * meeting-sdk/auth; its auth endpoint sample): HS256 over `{appKey, sdkKey, mn, role, iat, exp, tokenExp}`
 * with the app's secret, `exp - iat` between 1800 s and 48 h. Pure: the time comes in.
 *
 * We sign with the shortest life the platform accepts, 30 minutes, and date `iat` 30 s back so that a
 * platform clock a little behind ours does not see a token from the future. One signature per join (and
 * per retry): nothing long-lived ever reaches a bot.
 */

/** 0: join as a participant; 1: start the meeting as its host (only with the host's ZAK). */
export type SdkRole = 0 | 1;

export interface SdkSignatureClaims {
  readonly appKey: string;
  readonly sdkKey: string;
  /** the meeting number, digits only */
  readonly mn: string;
  readonly role: SdkRole;
  readonly iat: number;
  readonly exp: number;
  readonly tokenExp: number;
}

export const SIGNATURE_LIFETIME_SECONDS = 1800;
export const SIGNATURE_MAX_LIFETIME_SECONDS = 48 * 3600;
export const SIGNATURE_CLOCK_SKEW_SECONDS = 30;

export const sdkSignatureClaims = (sdkKey: string, meetingNumber: string, role: SdkRole, nowMs: number): SdkSignatureClaims => {
  const iat = Math.floor(nowMs / 1000) - SIGNATURE_CLOCK_SKEW_SECONDS;
  const exp = iat + SIGNATURE_LIFETIME_SECONDS;
  return { appKey: sdkKey, sdkKey, mn: meetingNumber, role, iat, exp, tokenExp: exp };
};

/** Why the platform would refuse these claims at `nowMs` (null: they are acceptable), as the sandbox checks them. */
export const signatureClaimsProblem = (claims: Partial<Record<keyof SdkSignatureClaims, unknown>>, nowMs: number): string | null => {
  const now = Math.floor(nowMs / 1000);
  const key = claims.appKey ?? claims.sdkKey;
  if (typeof key !== 'string' || key === '') return 'the signature names no appKey';
  if (claims.sdkKey !== undefined && claims.sdkKey !== key) return 'appKey and sdkKey differ';
  if (typeof claims.mn !== 'string' && typeof claims.mn !== 'number') return 'the signature names no meeting number (mn)';
  if (claims.role !== 0 && claims.role !== 1) return 'role must be 0 or 1';
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return 'iat and exp must be numbers';
  if (claims.exp - claims.iat < SIGNATURE_LIFETIME_SECONDS || claims.exp - claims.iat > SIGNATURE_MAX_LIFETIME_SECONDS) return 'exp must be 1800 s to 48 h after iat';
  if (claims.iat > now + SIGNATURE_CLOCK_SKEW_SECONDS) return 'the signature was issued in the future';
  if (claims.exp <= now) return 'the signature has expired';
  if (claims.tokenExp !== undefined && (typeof claims.tokenExp !== 'number' || claims.tokenExp <= now)) return 'the signature has expired (tokenExp)';
  return null;
};

/** The meeting number of a vc meeting URL (`/j/<digits>`, `/s/`, `/w/`, `/wc/<digits>/join`, `/wc/join/<digits>`); null if it has none. */
export const meetingNumberOf = (meetingUrl: string): string | null => {
  let path: string;
  try {
    path = new URL(meetingUrl).pathname;
  } catch {
    return null;
  }
  const m = /^\/(?:[jsw]|wc(?:\/join)?)\/(\d{9,11})(?:\/|$)/.exec(path);
  return m ? m[1]! : null;
};

/** The passcode a vc meeting URL carries (`pwd`), which the SDK's join takes as `passWord`; '' when none. */
export const meetingPasscodeOf = (meetingUrl: string): string => {
  try {
    return new URL(meetingUrl).searchParams.get('pwd') ?? '';
  } catch {
    return '';
  }
};
