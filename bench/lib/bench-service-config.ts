import { randomBytes } from 'node:crypto';
import type { ServiceConfig } from '../../src/config';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef0123';

/**
 * A bench's service: its own folder and secret, no bot slots, quiet, every protection on. A bench turns
 * on the development conveniences it needs itself, by name.
 */
export const benchServiceConfig = (dataDir: string, conveniences: Partial<Pick<ServiceConfig, 'sandboxHosts' | 'allowPrivateWebhookTargets'>> = {}): ServiceConfig => ({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  adminToken: BENCH_ADMIN_TOKEN,
  eventstoreUrl: undefined,
  mongoUrl: undefined,
  mongoDatabase: 'unused',
  sandboxHosts: false,
  publicUrl: undefined,
  botSlots: 0,
  logLevel: 'fatal',
  serviceSecret: randomBytes(32).toString('hex'),
  ...conveniences,
});
