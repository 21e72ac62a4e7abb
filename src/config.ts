import path from 'node:path';
import { realCalendarProviders, type CalendarProviderSettings } from './adapters/calendar-providers';
import { parseIngestKey, parseObjectStoreUrl } from './adapters/object-store/s3-location';
import { vcSettingsFromEnv, type VcSettings } from './capabilities/vc-settings';

export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly adminToken: string | undefined;
  readonly eventstoreUrl: string | undefined;
  readonly mongoUrl: string | undefined;
  readonly mongoDatabase: string;
  /** Accept meeting URLs of the local sandbox platform (vc.localhost, tm.localhost, mt.localhost). */
  readonly sandboxHosts: boolean;
  /** The address bots use to reach the service's internal API. */
  readonly publicUrl: string | undefined;
  readonly botSlots: number | undefined;
  /** Names this instance in the bots it runs: at start it fails only its own bots that its previous run left. */
  readonly instanceId?: string | undefined;
  readonly logLevel: string;
  /** Signs bot tokens and links and keys the secret box; made once in dataDir when unset. */
  readonly serviceSecret?: string | undefined;
  /** The service's own artifacts in an S3-compatible bucket (s3://KEY:SECRET@host/bucket?region=…); unset: DATA_DIR/artifacts. */
  readonly objectStoreUrl?: string | undefined;
  /** A put-only key of that bucket for bots (`id:secret`); unset, bots upload through the service. */
  readonly objectStoreIngestKey?: string | undefined;
  /** Teams' storage endpoints must be https and on public addresses (production); otherwise any endpoint will do. */
  readonly publicStorageEndpointsOnly?: boolean;
  /** Tests: `<host>:<port>` of a sandbox whose replicas the bots reach under the real platform hosts. */
  readonly sandboxReplicas?: string | undefined;
  /** Webhooks and callbacks go to public https addresses only (production); otherwise http to this machine is allowed too. */
  readonly publicWebhookTargetsOnly?: boolean;
  /** Where Google Calendar, Microsoft Graph and their token endpoints are (the real services unless set). */
  readonly calendarProviders?: CalendarProviderSettings;
  /** How often every connected calendar is read again, push notices or not. */
  readonly calendarResyncMs?: number;
  /** vc joins with credentials: the platform's OAuth and REST base URLs, default SDK credentials, OBF retry (VC_*) */
  readonly vc?: VcSettings;
}

const flag = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

const botSlotsFrom = (value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const slots = Number(value);
  if (!Number.isInteger(slots) || slots < 0) throw new Error(`BOT_SLOTS must be a whole number, 0 or more, got "${value}"`);
  return slots;
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

/** A test setting: a production service refuses to start with it rather than ignore it silently. */
const sandboxReplicasFrom = (value: string | undefined, nodeEnv: string | undefined): string | undefined => {
  if (value === undefined || value === '') return undefined;
  if (nodeEnv === 'production') throw new Error('SANDBOX_REPLICAS sends bots to a test sandbox: it cannot be set with NODE_ENV=production');
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

/** Every setting comes from the environment; see the README's table. */
export const configFromEnv = (env: NodeJS.ProcessEnv = process.env): ServiceConfig => ({
  port: portFrom(env.PORT, 8080),
  host: env.HOST || '0.0.0.0',
  dataDir: path.resolve(env.DATA_DIR || './data'),
  adminToken: env.ADMIN_TOKEN || undefined,
  eventstoreUrl: env.EVENTSTORE_URL || undefined,
  mongoUrl: env.MONGO_URL || undefined,
  mongoDatabase: env.MONGO_DATABASE || 'meeting_bot_service',
  sandboxHosts: flag(env.SANDBOX_HOSTS, env.NODE_ENV !== 'production'),
  publicUrl: env.PUBLIC_URL || undefined,
  botSlots: botSlotsFrom(env.BOT_SLOTS),
  instanceId: env.INSTANCE_ID || undefined,
  logLevel: env.LOG_LEVEL || 'info',
  serviceSecret: env.SERVICE_SECRET || undefined,
  objectStoreUrl: objectStoreUrlFrom(env.OBJECT_STORE_URL),
  objectStoreIngestKey: ingestKeyFrom(env.OBJECT_STORE_INGEST_KEY, objectStoreUrlFrom(env.OBJECT_STORE_URL)),
  publicStorageEndpointsOnly: env.NODE_ENV === 'production',
  sandboxReplicas: sandboxReplicasFrom(env.SANDBOX_REPLICAS, env.NODE_ENV),
  publicWebhookTargetsOnly: env.NODE_ENV === 'production',
  calendarProviders: calendarProvidersFrom(env),
  calendarResyncMs: minutesFrom('CALENDAR_RESYNC_MINUTES', env.CALENDAR_RESYNC_MINUTES),
  vc: vcSettingsFromEnv(env),
});
