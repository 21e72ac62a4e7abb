/**
 * A self-signed certificate for the sandbox, made at start with openssl (EC P-256, 30 days): the test
 * certificate authority of the sandbox, and its server certificate. It covers localhost,
 * vc.localhost, tm.localhost, mt.localhost, 127.0.0.1 and the real hosts the replica flavours answer
 * for (meet.google.com, …): only a client told to trust it (a bot with SANDBOX_REPLICAS) accepts it.
 */
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { replicaHostNames } from './replicas';

const run = promisify(execFile);

export const certificateHostNames: readonly string[] = ['localhost', 'vc.localhost', 'tm.localhost', 'mt.localhost', ...replicaHostNames()];
export const certificateIps = ['127.0.0.1'] as const;

export interface SandboxCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** base64 SHA-256 of the public key (SPKI), for Chromium's --ignore-certificate-errors-spki-list */
  readonly spkiSha256: string;
}

export async function makeCertificate(): Promise<SandboxCertificate> {
  const dir = await mkdtemp(join(tmpdir(), 'meeting-sandbox-cert-'));
  try {
    const san = [...certificateHostNames.map((h) => `DNS:${h}`), ...certificateIps.map((ip) => `IP:${ip}`)].join(',');
    await run('openssl', [
      'req', '-x509', '-nodes', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '30',
      '-subj', '/CN=meeting-bot sandbox', '-addext', `subjectAltName=${san}`,
    ]);
    const certPem = await readFile(join(dir, 'cert.pem'), 'utf8');
    const keyPem = await readFile(join(dir, 'key.pem'), 'utf8');
    return { certPem, keyPem, spkiSha256: spkiSha256(certPem) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** base64 SHA-256 of a certificate's SubjectPublicKeyInfo (DER). */
export function spkiSha256(certPem: string): string {
  const der = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

/** Chromium arguments that make it trust exactly this certificate. */
export function chromiumTrustArgs(certPem: string): string[] {
  return [`--ignore-certificate-errors-spki-list=${spkiSha256(certPem)}`];
}
