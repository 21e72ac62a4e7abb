import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import bunyan from 'bunyan';
import type { VcSettings } from '../../src/capabilities/vc-settings';
import type { ServiceConfig } from '../../src/config';
import { startService, type RunningService, type ServiceOverrides } from '../../src/service';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestService {
  readonly service: RunningService;
  readonly url: string;
  readonly dataDir: string;
  /** every log line the service wrote, as text */
  readonly logText: () => string;
  /** stops it and starts it again on the same data, with some options changed */
  restart(changes?: Partial<TestServiceOptions>): Promise<TestService>;
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  readonly botSlots?: number;
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
  /** as NODE_ENV=production: webhooks only to public https addresses */
  readonly publicWebhookTargetsOnly?: boolean;
  readonly overrides?: ServiceOverrides;
  /** the service's own bucket (OBJECT_STORE_URL); unset: the local folder */
  readonly objectStoreUrl?: string;
  /** a put-only key of that bucket for bots (OBJECT_STORE_INGEST_KEY) */
  readonly objectStoreIngestKey?: string;
  /** CALENDAR_RESYNC_MINUTES, in ms */
  readonly calendarResyncMs?: number;
  /** teams' storage endpoints as with NODE_ENV=production */
  readonly publicStorageEndpointsOnly?: boolean;
  /** vc joins: the platform's base URLs (a fake), default SDK credentials, the OBF retry interval */
  readonly vc?: VcSettings;
}

/** The whole service on an ephemeral port with its own data folder; bots are not run unless slots are given. */
export const startTestService = async (options: TestServiceOptions = {}): Promise<TestService> => {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mbs-test-'));
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
    mongoUrl: undefined,
    mongoDatabase: 'unused',
    sandboxHosts: options.sandboxHosts ?? true,
    publicUrl: undefined,
    botSlots: options.botSlots ?? 0,
    instanceId: options.instanceId,
    logLevel: 'debug',
    objectStoreUrl: options.objectStoreUrl,
    objectStoreIngestKey: options.objectStoreIngestKey,
    publicStorageEndpointsOnly: options.publicStorageEndpointsOnly ?? false,
    sandboxReplicas: options.sandboxReplicas,
    publicWebhookTargetsOnly: options.publicWebhookTargetsOnly ?? false,
    calendarResyncMs: options.calendarResyncMs,
    vc: options.vc,
  };
  const service = await startService(config, { log, ...(options.clock ? { clock: options.clock } : {}), ...options.overrides });
  const self: TestService = {
    service,
    url: service.url,
    dataDir,
    logText: () => lines.join(''),
    restart: async (changes: Partial<TestServiceOptions> = {}) => {
      await service.stop();
      return startTestService({ ...options, ...changes, dataDir, ...(changes.keepPort ? { port: service.port } : {}) });
    },
    stop: async () => {
      await service.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return self;
};
