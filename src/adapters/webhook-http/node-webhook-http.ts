import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { policedLookup, RefusedTarget } from './policed-lookup';
import type { WebhookHttp, WebhookRequest, WebhookResponse } from './port';
import { addressProblem, resolveWithDns, urlProblem, type Resolve, type TargetPolicy } from './target-policy';

/** A receiver's answer is not read beyond this: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends with node's own HTTP client, so that the address policy is enforced on the address the socket
 * really connects to (a name that resolved to a public address at creation and to a private one now is
 * refused now). Redirects are not followed: a 3xx is the receiver's answer, and not a success.
 */
export class NodeWebhookHttp implements WebhookHttp {
  constructor(
    private readonly policy: TargetPolicy,
    private readonly resolve: Resolve = resolveWithDns,
  ) {}

  send(request: WebhookRequest, timeoutMs: number): Promise<WebhookResponse> {
    const refused = urlProblem(request.url, this.policy);
    if (refused !== null) return Promise.resolve({ error: `refused: the URL ${refused}` });
    const url = new URL(request.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const problem = addressProblem(url, host, this.policy);
      if (problem !== null) return Promise.resolve({ error: `refused: the URL ${problem}` });
    }
    return new Promise((resolve) => {
      let settled = false;
      const finish = (response: WebhookResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(response);
      };
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(
        url,
        {
          method: request.method,
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          lookup: policedLookup(url, this.policy, this.resolve),
          agent: false,
        },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          res.on('error', () => undefined);
          // The answer is complete at its end (the socket may stay open a while longer).
          res.on('end', () => finish({ status_code: res.statusCode ?? 0 }));
          res.on('close', () => finish({ status_code: res.statusCode ?? 0 }));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        const why = err instanceof RefusedTarget ? err.message : err.code ? `${err.code}: ${err.message}` : err.message;
        finish({ error: why });
      });
      req.end(request.body);
    });
  }
}
