import path from 'node:path';
import { realCalendarProviders, type CalendarProviderSettings } from './adapters/calendar-providers';
import { parseIngestKey, parseObjectStoreUrl } from './adapters/object-store/s3-location';
import { defaultServiceSecretFile } from './adapters/signing/load-service-keys';
import { artifactSizeLimitsFrom, MIB, type ArtifactSizeLimits } from './http/internal/upload-limits';
import type { Role } from './roles';
import type { Platform } from './domain/meeting-url';
import { vcSettingsFromEnv, type VcSettings } from './capabilities/vc-settings';

export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly adminToken: string | undefined;
  readonly eventstoreUrl: string | undefined;
  /** PostgreSQL for the event log, checkpoints and leases (the multi-machine path); exclusive with eventstoreUrl. */
  readonly databaseUrl?: string | undefined;
  readonly mongoUrl: string | undefined;
  readonly mongoDatabase: string;
  /**
   * Where read models live without MONGO_URL (READ_STORE): `sqlite`, a file in DATA_DIR that outlives a
   * restart (the default), or `memory`, folded again from the whole log at every start.
   */
  readonly readStore?: 'sqlite' | 'memory';
  /**
   * Development convenience (SANDBOX_HOSTS=1): accept meeting URLs of the local sandbox platform
   * (vc.localhost, tm.localhost, mt.localhost), whose certificate the bots then trust.
   */
  readonly sandboxHosts: boolean;
  /** The address bots use to reach the service's internal API. */
  readonly publicUrl: string | undefined;
  readonly botSlots: number | undefined;
  /** Bot processes kept started, with their Chromium, before their job (BOT_POOL_SIZE; default: two, at most the slots). */
  readonly botPoolSize?: number | undefined;
  /** Names this instance in the bots it runs: at start it fails only its own bots that its previous run left. */
  readonly instanceId?: string | undefined;
  readonly logLevel: string;
  /** The current master secret (SERVICE_SECRET): every key (sealing, bot tokens, links) is derived from it. */
  readonly serviceSecret?: string | undefined;
  /** Earlier master secrets, still opening and verifying what they sealed and signed (SERVICE_PREVIOUS_SECRETS). */
  readonly previousServiceSecrets?: readonly string[] | undefined;
  /** A file of master secrets, the current one first (SERVICE_SECRET_FILE); made when absent. */
  readonly serviceSecretFile?: string | undefined;
  /** The service's own artifacts in an S3-compatible bucket (s3://KEY:SECRET@host/bucket?region=…); unset: DATA_DIR/artifacts. */
  readonly objectStoreUrl?: string | undefined;
  /** A put-only key of that bucket for bots (`id:secret`); unset, bots upload through the service. */
  readonly objectStoreIngestKey?: string | undefined;
  /**
   * Development convenience (ALLOW_PRIVATE_STORAGE_ENDPOINTS=1): teams' storage endpoints may be http and on
   * this machine or a private network. Off: https and public addresses only.
   */
  readonly allowPrivateStorageEndpoints?: boolean;
  /** The unprivileged user bots run as when the service runs as root (default meetbot, made by the install script). */
  readonly botUser?: string | undefined;
  /** Development convenience (BOT_SAME_USER=1): a service that cannot switch user (not root) runs bots as itself; otherwise it refuses to run them. */
  readonly botSameUser?: boolean;
  /** Development convenience (SANDBOX_REPLICAS): `<host>:<port>` of a sandbox whose replicas the bots reach under the real platform hosts. */
  readonly sandboxReplicas?: string | undefined;
  /**
   * Development convenience (ALLOW_PRIVATE_WEBHOOK_TARGETS=1): webhooks and callbacks may go to http and to
   * this machine or a private network. Off: public https addresses only.
   */
  readonly allowPrivateWebhookTargets?: boolean;
  /** Development convenience (BOT_TEST_CA_PEM): a PEM file of a certificate authority bots also trust for their own connections. */
  readonly botTestCaPem?: string | undefined;
  /**
   * Development and tests (SCRIPTED_BOTS=vc,tm,mt): bots of these platforms run a scripted stand-in
   * (bot-runtime/scripted/) that speaks the real internal API but opens no browser and joins no meeting.
   */
  readonly scriptedBots?: readonly Platform[];
  /** The largest upload a bot may make, per artifact kind (ARTIFACT_SIZE_LIMITS_MB); unset kinds keep their default. */
  readonly artifactSizeLimits?: Partial<ArtifactSizeLimits>;
  /** Uploads are refused while DATA_DIR has less free space than this (MIN_FREE_DISK_MB), so the event log keeps room. */
  readonly minFreeDiskBytes?: number;
  /** Where Google Calendar, Microsoft Graph and their token endpoints are (the real services unless set). */
  readonly calendarProviders?: CalendarProviderSettings;
  /** How often every connected calendar is read again, push notices or not. */
  readonly calendarResyncMs?: number;
  /** What this process does (ROLE): api, worker (runs bots), or all (the default). */
  readonly role?: Role;
  /** How long a lease lasts unless renewed (LEASE_TTL_SECONDS); holders renew, and standbys try, every third of it. */
  readonly leaseTiming?: { readonly ttlMs: number; readonly renewEveryMs: number; readonly retryEveryMs: number };
  /** vc joins with credentials: the platform's OAuth and REST base URLs, default SDK credentials, OBF retry (VC_*) */
  readonly vc?: VcSettings;
}

/** A switch is on or off, said plainly: anything else stops the start rather than be taken for off. */
const flag = (name: string, value: string | undefined): boolean => {
  if (value === undefined || value === '') return false;
  const said = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(said)) return true;
  if (['0', 'false', 'no', 'off'].includes(said)) return false;
  throw new Error(`${name} must be 1 or 0 (true/false, yes/no, on/off), got "${value}"`);
};

const wholeNumberFrom = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, 0 or more, got "${value}"`);
  return n;
};

const portFrom = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535, got "${value}"`);
  return port;
};

/** Checked here so that a wrong URL stops the start before anything is opened. */
const objectStoreUrlFrom = (value: string | undefined): string | undefined => {
  if (value === undefined || value === '') return undefined;
  parseObjectStoreUrl(value);
  return value;
};

const ingestKeyFrom = (value: string | undefined, objectStoreUrl: string | undefined): string | undefined => {
  if (value === undefined || value === '') return undefined;
  if (objectStoreUrl === undefined) throw new Error('OBJECT_STORE_INGEST_KEY needs OBJECT_STORE_URL (it is a key of that bucket)');
  parseIngestKey(value);
  return value;
};

const sandboxReplicasFrom = (value: string | undefined): string | undefined => {
  if (value === undefined || value === '') return undefined;
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(value)) throw new Error(`SANDBOX_REPLICAS must be <host>:<port>, got "${value}"`);
  return value;
};

const calendarProvidersFrom = (env: NodeJS.ProcessEnv): CalendarProviderSettings => ({
  googleApiBaseUrl: env.GOOGLE_API_BASE_URL || realCalendarProviders.googleApiBaseUrl,
  googleOAuthTokenUrl: env.GOOGLE_OAUTH_TOKEN_URL || realCalendarProviders.googleOAuthTokenUrl,
  microsoftGraphBaseUrl: env.MICROSOFT_GRAPH_BASE_URL || realCalendarProviders.microsoftGraphBaseUrl,
  microsoftOAuthTokenUrl: env.MICROSOFT_OAUTH_TOKEN_URL || realCalendarProviders.microsoftOAuthTokenUrl,
});

const minutesFrom = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`${name} must be a positive number of minutes, got "${value}"`);
  return minutes * 60_000;
};

/** One event log: two stores named at once would split it, whichever one the service picked. */
const databaseUrlFrom = (databaseUrl: string | undefined, eventstoreUrl: string | undefined): string | undefined => {
  if (!databaseUrl) return undefined;
  if (eventstoreUrl) throw new Error('DATABASE_URL (PostgreSQL) and EVENTSTORE_URL (EventStoreDB) both name the event store: set only one of them');
  return databaseUrl;
};

const readStoreFrom = (value: string | undefined, mongoUrl: string | undefined): ServiceConfig['readStore'] => {
  if (value === undefined || value === '') return undefined;
  if (value !== 'sqlite' && value !== 'memory') throw new Error(`READ_STORE must be sqlite or memory, got "${value}"`);
  if (mongoUrl) throw new Error(`READ_STORE=${value} and MONGO_URL both name the read store: set only one of them`);
  return value;
};

const roleFrom = (value: string | undefined): Role => {
  if (value === undefined || value === '') return 'all';
  if (value === 'api' || value === 'worker' || value === 'all') return value;
  throw new Error(`ROLE must be api, worker or all, got "${value}"`);
};

/** An api process runs no bots, and a worker needs the API's address for its bots and a way to run some. */
const checkRole = (role: Role, botSlots: number | undefined, publicUrl: string | undefined): void => {
  if (role === 'api' && botSlots !== undefined && botSlots > 0) {
    throw new Error(`ROLE=api runs no bots, but BOT_SLOTS is ${botSlots}: unset BOT_SLOTS (or set it to 0), or use ROLE=all`);
  }
  if (role === 'worker' && botSlots === 0) throw new Error('ROLE=worker runs bots: BOT_SLOTS must be more than 0 (or unset: what fits the machine)');
  if (role === 'worker' && publicUrl === undefined) {
    throw new Error("ROLE=worker needs PUBLIC_URL: the API's address (its load balancer) that its bots call, checked at start");
  }
};

const PLATFORMS: readonly Platform[] = ['vc', 'tm', 'mt'];

const scriptedBotsFrom = (value: string | undefined): readonly Platform[] | undefined => {
  if (value === undefined || value === '') return undefined;
  const named = value.split(',').map((p) => p.trim());
  const unknown = named.filter((p) => !(PLATFORMS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`SCRIPTED_BOTS must list platforms (vc, tm, mt), comma-separated, got "${value}"`);
  return named as Platform[];
};

const MIN_LEASE_TTL_MS = 500;

const leaseTimingFrom = (value: string | undefined): ServiceConfig['leaseTiming'] => {
  if (value === undefined || value === '') return undefined;
  const ttlMs = Math.round(Number(value) * 1000);
  if (!Number.isFinite(ttlMs) || ttlMs < MIN_LEASE_TTL_MS) throw new Error(`LEASE_TTL_SECONDS must be a number of seconds, at least 0.5, got "${value}"`);
  return { ttlMs, renewEveryMs: Math.round(ttlMs / 3), retryEveryMs: Math.round(ttlMs / 3) };
};

/** Long enough that guessing it over the network is hopeless (32 random hex characters are 128 bits). */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

const adminTokenFrom = (value: string | undefined): string | undefined => {
  if (value === undefined || value === '') return undefined;
  if (value.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long (e.g. openssl rand -hex 32), got ${value.length}`);
  }
  return value;
};

const listFrom = (value: string | undefined): string[] | undefined =>
  value === undefined || value === '' ? undefined : value.split(',').map((s) => s.trim()).filter((s) => s !== '');

const mebibytesFrom = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const mebibytes = Number(value);
  if (!Number.isFinite(mebibytes) || mebibytes < 0) throw new Error(`${name} must be a number of MiB, 0 or more, got "${value}"`);
  return Math.round(mebibytes * MIB);
};

/** The conveniences a configuration turns on, by the names that turn them on (none in production). */
export const conveniencesOn = (config: ServiceConfig): string[] => [
  ...(config.sandboxHosts ? ['SANDBOX_HOSTS'] : []),
  ...(config.sandboxReplicas ? ['SANDBOX_REPLICAS'] : []),
  ...(config.allowPrivateWebhookTargets ? ['ALLOW_PRIVATE_WEBHOOK_TARGETS'] : []),
  ...(config.allowPrivateStorageEndpoints ? ['ALLOW_PRIVATE_STORAGE_ENDPOINTS'] : []),
  ...(config.botTestCaPem ? ['BOT_TEST_CA_PEM'] : []),
  ...(config.botSameUser ? ['BOT_SAME_USER'] : []),
  ...(config.scriptedBots && config.scriptedBots.length > 0 ? ['SCRIPTED_BOTS'] : []),
];

/** NODE_ENV=production says this is no developer's machine: a development convenience there is a mistake. */
const refuseConveniencesInProduction = (config: ServiceConfig, nodeEnv: string | undefined): ServiceConfig => {
  const on = conveniencesOn(config);
  if (nodeEnv === 'production' && on.length > 0) {
    throw new Error(`${on.join(', ')}: development conveniences cannot be set with NODE_ENV=production (unset ${on.length === 1 ? 'it' : 'them'}, or NODE_ENV)`);
  }
  return config;
};

/**
 * Every setting comes from the environment; see the README's table. Safe whatever NODE_ENV says: each
 * development convenience is off unless its own variable turns it on.
 */
export const configFromEnv = (env: NodeJS.ProcessEnv = process.env): ServiceConfig => {
  const role = roleFrom(env.ROLE);
  checkRole(role, wholeNumberFrom('BOT_SLOTS', env.BOT_SLOTS), env.PUBLIC_URL || undefined);
  return refuseConveniencesInProduction(
    {
      port: portFrom(env.PORT, 8080),
      host: env.HOST || '0.0.0.0',
      dataDir: path.resolve(env.DATA_DIR || './data'),
      adminToken: adminTokenFrom(env.ADMIN_TOKEN),
      eventstoreUrl: env.EVENTSTORE_URL || undefined,
      databaseUrl: databaseUrlFrom(env.DATABASE_URL, env.EVENTSTORE_URL),
      mongoUrl: env.MONGO_URL || undefined,
      mongoDatabase: env.MONGO_DATABASE || 'meeting_bot_service',
      readStore: readStoreFrom(env.READ_STORE, env.MONGO_URL || undefined),
      sandboxHosts: flag('SANDBOX_HOSTS', env.SANDBOX_HOSTS),
      publicUrl: env.PUBLIC_URL || undefined,
      botSlots: wholeNumberFrom('BOT_SLOTS', env.BOT_SLOTS),
      botPoolSize: wholeNumberFrom('BOT_POOL_SIZE', env.BOT_POOL_SIZE),
      instanceId: env.INSTANCE_ID || undefined,
      logLevel: env.LOG_LEVEL || 'info',
      serviceSecret: env.SERVICE_SECRET || undefined,
      previousServiceSecrets: listFrom(env.SERVICE_PREVIOUS_SECRETS),
      // Unless the secret is given, it is in a file, by default outside DATA_DIR.
      serviceSecretFile: env.SERVICE_SECRET_FILE || (env.SERVICE_SECRET ? undefined : defaultServiceSecretFile(env)),
      objectStoreUrl: objectStoreUrlFrom(env.OBJECT_STORE_URL),
      objectStoreIngestKey: ingestKeyFrom(env.OBJECT_STORE_INGEST_KEY, objectStoreUrlFrom(env.OBJECT_STORE_URL)),
      allowPrivateStorageEndpoints: flag('ALLOW_PRIVATE_STORAGE_ENDPOINTS', env.ALLOW_PRIVATE_STORAGE_ENDPOINTS),
      sandboxReplicas: sandboxReplicasFrom(env.SANDBOX_REPLICAS),
      allowPrivateWebhookTargets: flag('ALLOW_PRIVATE_WEBHOOK_TARGETS', env.ALLOW_PRIVATE_WEBHOOK_TARGETS),
      botTestCaPem: env.BOT_TEST_CA_PEM || undefined,
      scriptedBots: scriptedBotsFrom(env.SCRIPTED_BOTS),
      botUser: env.BOT_USER || undefined,
      botSameUser: flag('BOT_SAME_USER', env.BOT_SAME_USER),
      artifactSizeLimits: artifactSizeLimitsFrom(env.ARTIFACT_SIZE_LIMITS_MB),
      minFreeDiskBytes: mebibytesFrom('MIN_FREE_DISK_MB', env.MIN_FREE_DISK_MB),
      calendarProviders: calendarProvidersFrom(env),
      calendarResyncMs: minutesFrom('CALENDAR_RESYNC_MINUTES', env.CALENDAR_RESYNC_MINUTES),
      role,
      leaseTiming: leaseTimingFrom(env.LEASE_TTL_SECONDS),
      vc: vcSettingsFromEnv(env),
    },
    env.NODE_ENV,
  );
};
