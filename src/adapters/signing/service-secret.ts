import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The secret behind per-bot tokens and signed artifact URLs. Taken from SERVICE_SECRET when set (several
 * service instances must share it), otherwise made once and kept in the data folder, readable by the owner only.
 */
export const loadServiceSecret = (dataDir: string, fromEnv: string | undefined): Buffer => {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  const file = path.join(dataDir, 'service-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
};
