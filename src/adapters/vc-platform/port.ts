import type { SdkSignatureClaims } from '../../domain/vc-credentials/sdk-signature-claims';
import type { TokenJudgement } from '../../domain/vc-credentials/token-url-answer';

/**
 * The vc platform's OAuth and REST endpoints the service uses for managed OBF tokens (developers.zoom.us:
 * OAuth authorization-code and refresh-token grants, `GET /v2/users/me`, `GET /v2/users/me/token?
 * type=onbehalf&meeting_id=…`). Base URLs come from configuration so that tests point them at a local fake.
 */
export interface VcTokenGrant {
  readonly access_token: string;
  readonly refresh_token: string;
  /** seconds */
  readonly expires_in: number;
  readonly scope: string;
}

export interface VcUser {
  readonly id: string;
  readonly account_id: string;
}

/**
 * A failure: `refused` when the platform says the credential itself is no good (a grant refused, an
 * unknown client, a token it will not accept): the credential turns invalid. Otherwise the platform could
 * not be reached or failed, and the next join tries again.
 */
export interface VcPlatformFailure {
  readonly ok: false;
  readonly refused: boolean;
  /** what happened, for the team: never a token or a secret */
  readonly reason: string;
}

export type VcPlatformResult<T> = { readonly ok: true; readonly value: T } | VcPlatformFailure;

export interface VcClientCredentials {
  readonly client_id: string;
  readonly client_secret: string;
}

export interface VcPlatform {
  exchangeCode(client: VcClientCredentials, code: string, redirectUri: string): Promise<VcPlatformResult<VcTokenGrant>>;
  refresh(client: VcClientCredentials, refreshToken: string): Promise<VcPlatformResult<VcTokenGrant>>;
  currentUser(accessToken: string): Promise<VcPlatformResult<VcUser>>;
  /** a fresh On-Behalf-Of token of the token's user for this meeting */
  obfToken(accessToken: string, meetingNumber: string): Promise<VcPlatformResult<string>>;
}

export interface VcPlatformSettings {
  /** where `/oauth/token` is (default https://zoom.us) */
  readonly oauthBaseUrl: string;
  /** where the REST API's `/users/...` is (default https://api.zoom.us/v2) */
  readonly apiBaseUrl: string;
}

export const realVcPlatform: VcPlatformSettings = { oauthBaseUrl: 'https://zoom.us', apiBaseUrl: 'https://api.zoom.us/v2' };

export interface TokenUrlRequest {
  readonly url: string;
  readonly botId: string;
  /** the bot's `extra` as given at creation (null: none) */
  readonly extra: Record<string, unknown> | null;
}

/** The customer's token URLs (OBF and ZAK), called under the spec's contract (token-url-client.ts). */
export interface TokenUrls {
  fetchToken(request: TokenUrlRequest): Promise<TokenJudgement>;
}

/** Signs a Meeting SDK join with an app's secret (sdk-signature.ts): the secret never leaves the service. */
export type SignSdkJwt = (claims: SdkSignatureClaims, secret: string) => string;
