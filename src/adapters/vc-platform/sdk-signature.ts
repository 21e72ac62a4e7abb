import { createHmac } from 'node:crypto';
import type { SignSdkJwt } from './port';

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/** The Meeting SDK JWT: HS256 over the documented claims, with the app's secret (never leaves the service). */
export const signSdkJwt: SignSdkJwt = (claims, secret) => {
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
};
