import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxError } from './meeting-state';

const MAX_BODY = 256 * 1024;

/** Reads a JSON body (whatever the content type: sendBeacon posts text/plain). Empty body: {}. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new SandboxError(400, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SandboxError(400, 'the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SandboxError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

export function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

export const sendHtml = (res: ServerResponse, status: number, html: string) => send(res, status, 'text/html; charset=utf-8', html);

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof SandboxError) sendJson(res, err.status, { error: err.message });
  else sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) });
}

/** Reads an application/x-www-form-urlencoded body (a sign-in page's form). */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new SandboxError(400, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** A cookie of the request by name, or null. */
export function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

export const redirect = (res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}) =>
  res.writeHead(302, { location, 'cache-control': 'no-store', ...headers }).end();
