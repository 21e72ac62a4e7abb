import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIN_SECRET_BYTES, ServiceKeys } from './service-keys';

/** Where the service's master secrets come from (README, "Security"). */
export interface KeySettings {
  /** SERVICE_SECRET: the current secret */
  readonly serviceSecret?: string | undefined;
  /** SERVICE_PREVIOUS_SECRETS: secrets still accepted for opening and verifying what they sealed and signed */
  readonly previousServiceSecrets?: readonly string[] | undefined;
  /** SERVICE_SECRET_FILE: a file of secrets, one a line, the current one first; made with one new secret when absent */
  readonly serviceSecretFile?: string | undefined;
}

/** Where the key file is when nothing says otherwise: the user's configuration folder, never the data folder. */
export const defaultServiceSecretFile = (env: NodeJS.ProcessEnv): string =>
  path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config'), 'meeting-bot-service', 'service-secret');

/** The file in which the service used to make its one secret, beside the data it protects. */
const LEGACY_FILE = 'service-secret';

const secretsOfFile = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

const makeKeyFile = (file: string): void => {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
};

const isInside = (file: string, folder: string): boolean => {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

const tooShort = (where: string) => new Error(`${where} must be at least ${MIN_SECRET_BYTES} bytes long (e.g. openssl rand -hex 32)`);

export interface LoadedKeys {
  readonly keys: ServiceKeys;
  /** what an operator should know (logged as warnings at start) */
  readonly warnings: readonly string[];
}

/**
 * The key ring from the settings: SERVICE_SECRET (with SERVICE_PREVIOUS_SECRETS) or SERVICE_SECRET_FILE,
 * never both. A secret the service made in DATA_DIR before (issue 18) is kept as a previous key, so that
 * what it sealed still opens, and the start says how to move it out.
 */
export const loadServiceKeys = (settings: KeySettings, dataDir: string): LoadedKeys => {
  const warnings: string[] = [];
  let secrets: string[];
  if (settings.serviceSecret !== undefined && settings.serviceSecretFile !== undefined) {
    throw new Error('SERVICE_SECRET and SERVICE_SECRET_FILE are both set: keep the secrets in one place');
  }
  if (settings.serviceSecret !== undefined) {
    if (Buffer.byteLength(settings.serviceSecret) < MIN_SECRET_BYTES) throw tooShort('SERVICE_SECRET');
    secrets = [settings.serviceSecret, ...(settings.previousServiceSecrets ?? [])];
  } else if (settings.serviceSecretFile !== undefined) {
    if (settings.previousServiceSecrets?.length) throw new Error('SERVICE_PREVIOUS_SECRETS goes with SERVICE_SECRET: with SERVICE_SECRET_FILE, previous secrets are the lines after the first');
    const file = path.resolve(settings.serviceSecretFile);
    if (!existsSync(file)) {
      makeKeyFile(file);
      warnings.push(`made a new service secret in ${file}: keep a copy (without it, sealed secrets cannot be opened)`);
    }
    if ((statSync(file).mode & 0o077) !== 0) warnings.push(`${file} is readable by other users: chmod 600 it`);
    if (isInside(file, path.resolve(dataDir))) warnings.push(`${file} is inside DATA_DIR: a copy of the data would carry its key`);
    secrets = secretsOfFile(file);
    if (secrets.length === 0) throw new Error(`${file} holds no secret`);
    if (Buffer.byteLength(secrets[0]!) < MIN_SECRET_BYTES) throw tooShort(`the first secret of ${file} (the current one)`);
  } else {
    throw new Error('no service secret: set SERVICE_SECRET or SERVICE_SECRET_FILE');
  }
  const legacy = path.join(dataDir, LEGACY_FILE);
  if (existsSync(legacy)) {
    const old = readFileSync(legacy, 'utf8').trim();
    if (!secrets.includes(old)) {
      secrets.push(old);
      warnings.push(
        `${legacy} (the secret this service used to keep beside its data) is used as a previous key: move it out of DATA_DIR, as a line after the first of SERVICE_SECRET_FILE or in SERVICE_PREVIOUS_SECRETS, then delete it`,
      );
    }
  }
  if (secrets.slice(1).some((s) => Buffer.byteLength(s) < MIN_SECRET_BYTES)) {
    warnings.push(`a previous service secret is shorter than ${MIN_SECRET_BYTES} bytes: it only opens and verifies what it made; retire it once that no longer matters`);
  }
  return { keys: new ServiceKeys(secrets.map((s) => Buffer.from(s, 'utf8'))), warnings };
};
