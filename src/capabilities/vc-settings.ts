import { realVcPlatform, type VcPlatformSettings } from '../adapters/vc-platform/port';

/** The service's settings of vc joins with credentials (README: configuration). */
export interface VcSettings {
  readonly platform: VcPlatformSettings;
  /** the service's default SDK credentials: they sign the joins of teams without their own (null: none) */
  readonly defaultSdk: { readonly sdk_key: string; readonly sdk_secret: string } | null;
  /** seconds between two joins while the OBF token's user is not in the meeting (spec: 30) */
  readonly obfRetrySeconds: number;
  /** how long a token URL may take to answer */
  readonly tokenUrlTimeoutMs: number;
}

export const defaultVcSettings: VcSettings = { platform: realVcPlatform, defaultSdk: null, obfRetrySeconds: 30, tokenUrlTimeoutMs: 5000 };

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
};

const baseUrl = (name: string, value: string | undefined, fallback: string): string => {
  if (value === undefined || value === '') return fallback;
  try {
    new URL(value);
  } catch {
    throw new Error(`${name} must be a URL, got "${value}"`);
  }
  return value.replace(/\/$/, '');
};

/** From the environment; a half-given SDK pair stops the start (it would sign nothing, silently). */
export const vcSettingsFromEnv = (env: NodeJS.ProcessEnv): VcSettings => {
  const key = env.VC_SDK_KEY || undefined;
  const secret = env.VC_SDK_SECRET || undefined;
  if ((key === undefined) !== (secret === undefined)) throw new Error('VC_SDK_KEY and VC_SDK_SECRET must be set together');
  return {
    platform: {
      oauthBaseUrl: baseUrl('VC_OAUTH_BASE_URL', env.VC_OAUTH_BASE_URL, realVcPlatform.oauthBaseUrl),
      apiBaseUrl: baseUrl('VC_API_BASE_URL', env.VC_API_BASE_URL, realVcPlatform.apiBaseUrl),
    },
    defaultSdk: key && secret ? { sdk_key: key, sdk_secret: secret } : null,
    obfRetrySeconds: positive('VC_OBF_RETRY_SECONDS', env.VC_OBF_RETRY_SECONDS, 30),
    tokenUrlTimeoutMs: positive('VC_TOKEN_URL_TIMEOUT_SECONDS', env.VC_TOKEN_URL_TIMEOUT_SECONDS, 5) * 1000,
  };
};
