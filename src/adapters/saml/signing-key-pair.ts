import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

export interface SigningKeyPair {
  /** X.509, PEM: what the customer enters as the SSO profile's verification certificate */
  readonly certificatePem: string;
  /** PKCS#8, PEM: sealed before it is stored */
  readonly privateKeyPem: string;
}

/** Long enough that nobody has to re-enter it in the domain's SSO profile; a new workspace gets a new pair. */
export const CERTIFICATE_YEARS = 10;

/**
 * An identity provider's signing key pair: RSA 2048 (Google asks for an RSA certificate) made by Node's
 * crypto, and a self-signed certificate around its public key, signed with SHA-256 (node-forge builds the
 * X.509 structure; no hand-written ASN.1).
 */
export const makeSigningKeyPair = async (subject: string, now: Date): Promise<SigningKeyPair> => {
  // off the event loop: an RSA key takes a while to find
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  // positive serial: a leading byte below 0x80
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + CERTIFICATE_YEARS * 365 * 24 * 3600 * 1000);
  const attrs = [{ name: 'commonName', value: subject.slice(0, 64) }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem: privateKey };
};
