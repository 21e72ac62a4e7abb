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

/** Reads the certificate served on 127.0.0.1:`port` for `servername`. */
export const presentedSpki = (servername: string, port: number, timeoutMs = 5000): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false, timeout: timeoutMs }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      if (!cert || !cert.raw) return reject(new Error('the sandbox presented no certificate'));
      resolve(spkiSha256OfDer(cert.raw));
    });
    socket.on('timeout', () => socket.destroy(new Error('timed out reading the sandbox certificate')));
    socket.on('error', reject);
  });

/** The Chromium arguments that pin the sandbox certificate for `meetingUrl` (a sandbox URL). */
export const sandboxTrustArgs = async (meetingUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<string[]> => {
  let pin = env.SANDBOX_SPKI_SHA256;
  if (!pin && env.SANDBOX_CA_PEM) pin = spkiSha256OfPem(env.SANDBOX_CA_PEM);
  if (!pin) {
    const url = new URL(meetingUrl);
    pin = await presentedSpki(url.hostname, Number(url.port || 443));
  }
  return [`--ignore-certificate-errors-spki-list=${pin}`];
};
