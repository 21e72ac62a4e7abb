/**
 * Which SDK app signs a vc bot's join (its name is what the platform's notice banner shows), first that
 * applies:
 * 1. the SDK credentials given with the bot (legacy `vc_sdk_id` + `vc_sdk_pwd`): the caller chose;
 * 2. the OAuth app of the connection the OBF token comes from: an OBF token authorises the app it was
 *    issued to, and a vc "general app" signs with the same client id and secret it uses for OAuth, so no
 *    other app could use that token;
 * 3. the team's stored SDK credentials (`/v2/vc-credentials`, type sdk);
 * 4. the service's default SDK credentials (configuration);
 * none: the bot joins through the web client without a signature, which a join carrying a token cannot do
 * (CANNOT_GET_JWT_TOKEN).
 */
export type SigningSource = 'request' | 'connection' | 'team' | 'service';

export interface SigningApp<Secret> {
  readonly source: SigningSource;
  readonly sdk_key: string;
  readonly secret: Secret;
}

export interface SigningCandidates<Secret> {
  readonly request: { readonly sdk_key: string; readonly secret: Secret } | null;
  readonly connection: { readonly sdk_key: string; readonly secret: Secret } | null;
  readonly team: { readonly sdk_key: string; readonly secret: Secret } | null;
  readonly service: { readonly sdk_key: string; readonly secret: Secret } | null;
}

const ORDER: readonly SigningSource[] = ['request', 'connection', 'team', 'service'];

export const signingAppOf = <Secret>(candidates: SigningCandidates<Secret>): SigningApp<Secret> | null => {
  for (const source of ORDER) {
    const found = candidates[source];
    if (found) return { source, sdk_key: found.sdk_key, secret: found.secret };
  }
  return null;
};

/** Whether a join goes through the Meeting SDK: any token needs it; a signing app alone makes it possible. */
export const joinsThroughSdk = (hasToken: boolean, hasSigningApp: boolean): boolean => hasToken || hasSigningApp;
