import { SecretBox } from '../../src/adapters/crypto/secret-box';
import { loadServiceKeys } from '../../src/adapters/signing/load-service-keys';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import bunyan from 'bunyan';
import type { VcSettings } from '../../src/capabilities/vc-settings';
import type { ServiceConfig } from '../../src/config';
import { startService, type RunningService, type ServiceOverrides } from '../../src/service';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef012345';

export interface TestService {
  readonly service: RunningService;
  readonly url: string;
  readonly dataDir: string;
  /** what the service seals with (its keys from its secret): tests open what it stored outside the log */
  readonly secretBox: SecretBox;
  /** every log line the service wrote, as text */
  readonly logText: () => string;
  /** stops it and starts it again on the same data, with some options changed */
  restart(changes?: Partial<TestServiceOptions>): Promise<TestService>;
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  readonly botSlots?: number;
  /** SANDBOX_HOSTS (on unless turned off: most tests send bots to the local sandbox) */
  readonly sandboxHosts?: boolean;
  readonly clock?: () => Date;
  readonly dataDir?: string;
  readonly instanceId?: string;
  /** listen on this port (0: any free one) */
  readonly port?: number;
  /** restart only: listen on the same port as before (bots keep the address they were given) */
  readonly keepPort?: boolean;
  /** `<host>:<port>` of a sandbox: the bots reach its replicas under the real platform hosts */
  readonly sandboxReplicas?: string;
  /** ALLOW_PRIVATE_WEBHOOK_TARGETS (on unless turned off: tests' receivers listen on this machine) */
  readonly allowPrivateWebhookTargets?: boolean;
  readonly overrides?: ServiceOverrides;
  /** the service's own bucket (OBJECT_STORE_URL); unset: the local folder */
  readonly objectStoreUrl?: string;
  /** a put-only key of that bucket for bots (OBJECT_STORE_INGEST_KEY) */
  readonly objectStoreIngestKey?: string;
  /** the event log, checkpoints and leases in this PostgreSQL database (DATABASE_URL) */
  readonly databaseUrl?: string;
  /** read models, and checkpoints unless databaseUrl, in this MongoDB database (MONGO_URL, MONGO_DATABASE) */
  readonly mongo?: { readonly url: string; readonly database: string };
  /** CALENDAR_RESYNC_MINUTES, in ms */
  readonly calendarResyncMs?: number;
  /** ALLOW_PRIVATE_STORAGE_ENDPOINTS (on unless turned off: tests' S3 servers listen on this machine) */
  readonly allowPrivateStorageEndpoints?: boolean;
  /** SERVICE_SECRET: one of the data folder's own unless given; a restart keeps it */
  readonly serviceSecret?: string;
  /** SERVICE_PREVIOUS_SECRETS */
  readonly previousServiceSecrets?: readonly string[];
  /** ARTIFACT_SIZE_LIMITS_MB, in bytes */
  readonly artifactSizeLimits?: ServiceConfig['artifactSizeLimits'];
  /** MIN_FREE_DISK_MB, in bytes */
  readonly minFreeDiskBytes?: number;
  /** vc joins: the platform's base URLs (a fake), default SDK credentials, the OBF retry interval */
  readonly vc?: VcSettings;
}

/** One secret per data folder: a service started again on the same folder (or the admin CLI on it) opens what it sealed. */
export const testServiceSecret = (dataDir: string): string => createHash('sha256').update(`test service ${dataDir}`).digest('hex');

/**
 * The whole service on an ephemeral port with its own data folder and its own secret; bots are not run
 * unless slots are given. The development conveniences these tests need are turned on here, explicitly:
 * bots go to the local sandbox (SANDBOX_HOSTS), webhooks to receivers and teams' storage to S3 servers on
 * this machine (ALLOW_PRIVATE_WEBHOOK_TARGETS, ALLOW_PRIVATE_STORAGE_ENDPOINTS). A test of the safe
 * posture turns them off; SANDBOX_REPLICAS only when asked.
 */
export const startTestService = async (options: TestServiceOptions = {}): Promise<TestService> => {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mbs-test-'));
  const serviceSecret = options.serviceSecret ?? testServiceSecret(dataDir);
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const log = bunyan.createLogger({ name: 'test', level: 'debug', streams: [{ stream, level: 'debug' }] });
  const config: ServiceConfig = {
    port: options.port ?? 0,
    host: '127.0.0.1',
    dataDir,
    adminToken: ADMIN_TOKEN,
    eventstoreUrl: process.env.EVENTSTORE_URL_FOR_SERVICE_TESTS,
    databaseUrl: options.databaseUrl,
    mongoUrl: options.mongo?.url,
    mongoDatabase: options.mongo?.database ?? 'unused',
    sandboxHosts: options.sandboxHosts ?? true,
    publicUrl: undefined,
    botSlots: options.botSlots ?? 0,
    instanceId: options.instanceId,
    logLevel: 'debug',
    objectStoreUrl: options.objectStoreUrl,
    objectStoreIngestKey: options.objectStoreIngestKey,
    allowPrivateStorageEndpoints: options.allowPrivateStorageEndpoints ?? true,
    sandboxReplicas: options.sandboxReplicas,
    allowPrivateWebhookTargets: options.allowPrivateWebhookTargets ?? true,
    calendarResyncMs: options.calendarResyncMs,
    serviceSecret,
    previousServiceSecrets: options.previousServiceSecrets,
    artifactSizeLimits: options.artifactSizeLimits,
    minFreeDiskBytes: options.minFreeDiskBytes,
    vc: options.vc,
  };
  const service = await startService(config, { log, ...(options.clock ? { clock: options.clock } : {}), ...options.overrides });
  const self: TestService = {
    service,
    url: service.url,
    dataDir,
    secretBox: new SecretBox(loadServiceKeys({ serviceSecret, previousServiceSecrets: options.previousServiceSecrets }, dataDir).keys),
    logText: () => lines.join(''),
    restart: async (changes: Partial<TestServiceOptions> = {}) => {
      await service.stop();
      return startTestService({ serviceSecret, ...options, ...changes, dataDir, ...(changes.keepPort ? { port: service.port } : {}) });
    },
    stop: async () => {
      await service.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return self;
};
