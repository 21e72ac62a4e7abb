/**
 * Trusting the sandbox's self-signed certificate, and nothing else: Chromium gets
 * `--ignore-certificate-errors-spki-list=<base64 SHA-256 of the certificate's public key>`.
 *
 * The pin comes from `SANDBOX_SPKI_SHA256` (or the PEM in `SANDBOX_CA_PEM`) when set; otherwise the
 * bot reads the certificate the sandbox presents on loopback (the sandbox hosts `*.localhost` are
 * loopback by definition, so nothing outside this machine can answer) and pins that one.
 */
import { createHash, X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';

export const spkiSha256OfPem = (pem: string): string => spkiSha256OfDer(new X509Certificate(pem).raw);

const spkiSha256OfDer = (der: Buffer): string => {
  const spki = new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
};

/** Reads the certificate served on `host`:`port` (default loopback) for `servername`. */
export const presentedSpki = (servername: string, port: number, timeoutMs = 5000, host = '127.0.0.1'): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, servername, rejectUnauthorized: false, timeout: timeoutMs }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      if (!cert || !cert.raw) return reject(new Error('the sandbox presented no certificate'));
      resolve(spkiSha256OfDer(cert.raw));
    });
    socket.on('timeout', () => socket.destroy(new Error('timed out reading the sandbox certificate')));
    socket.on('error', reject);
  });

/** The pin of the sandbox certificate for `meetingUrl` (a sandbox URL). */
export const sandboxPin = async (meetingUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<string> => {
  if (env.SANDBOX_SPKI_SHA256) return env.SANDBOX_SPKI_SHA256;
  if (env.SANDBOX_CA_PEM) return spkiSha256OfPem(env.SANDBOX_CA_PEM);
  const url = new URL(meetingUrl);
  return presentedSpki(url.hostname, Number(url.port || 443));
};

/** Chromium trusts exactly these keys (base64 SHA-256 of SPKI), whatever else is wrong with the certificate. */
export const pinArgs = (pins: readonly string[]): string[] => (pins.length ? [`--ignore-certificate-errors-spki-list=${[...new Set(pins)].join(',')}`] : []);
