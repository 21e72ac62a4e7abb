import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openApiContract } from '../support/openapi-contract';
import { OUR_KEY_HEADER, renameJson, renameTarget, SDK_KEY_HEADER } from './spec-renames';

export interface ProxiedCall {
  readonly method: string;
  /** as the SDK sent it */
  readonly sdkTarget: string;
  /** as the service received it */
  readonly ourTarget: string;
  readonly sentBody: unknown;
  readonly status: number;
  readonly answer: unknown;
  /** how the service's own answer breaks docs/openapi.json (test/support/openapi-contract.ts), or null */
  readonly contractProblem: string | null;
}

export interface RenameProxy {
  readonly url: string;
  /** every call that went through, in order */
  readonly calls: ProxiedCall[];
  stop(): Promise<void>;
}

const bodyOf = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const parsed = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * A reverse proxy in front of the service that applies only the spec's renames (spec-renames.ts): what a
 * Meeting BaaS customer would put in front of us to use the official SDK unchanged. It records every call,
 * with how the service's answer breaks the OpenAPI document, if it does.
 */
export const startRenameProxy = async (serviceUrl: string): Promise<RenameProxy> => {
  const calls: ProxiedCall[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = (await bodyOf(req)).toString('utf8');
      const sentBody = parsed(raw);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value !== 'string' || name === 'host' || name === 'content-length' || name === 'connection') continue;
        headers[name === SDK_KEY_HEADER ? OUR_KEY_HEADER : name] = value;
      }
      const ourTarget = renameTarget(req.url ?? '/');
      const body = raw === '' ? undefined : typeof sentBody === 'string' ? raw : JSON.stringify(renameJson(sentBody, 'to-us'));
      const response = await fetch(`${serviceUrl}${ourTarget}`, { method: req.method, headers, body });
      const text = await response.text();
      const answer = renameJson(parsed(text), 'to-sdk');
      const contractProblem = openApiContract().problemWithResponse(req.method ?? 'GET', ourTarget, response.status, response.headers.get('content-type'), parsed(text));
      calls.push({ method: req.method ?? 'GET', sdkTarget: req.url ?? '/', ourTarget, sentBody, status: response.status, answer, contractProblem });
      res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'application/json' });
      res.end(text === '' ? '' : typeof answer === 'string' ? text : JSON.stringify(answer));
    })().catch((err: Error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
