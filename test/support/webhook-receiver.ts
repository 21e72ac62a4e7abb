import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openApiContract } from './openapi-contract';

export interface ReceivedWebhook {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** the exact bytes received, as text (what a signature is checked against) */
  readonly raw: string;
  readonly body: any;
  /** order of arrival at this receiver, and across every receiver of the test process */
  readonly seq: number;
  readonly globalSeq: number;
}

/** What the receiver does with the n-th request (0-based): answer with a status, or never answer. */
export type Answer = number | 'hang';

let arrivals = 0;

/**
 * A customer's webhook receiver over real HTTP on loopback: it records every request as it arrived and
 * answers as the test scripts it (default 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** bodies that break the document's `webhooks` (docs/openapi.json): waitFor throws on the first */
  readonly contractProblems: string[] = [];
  private server: http.Server | null = null;
  private readonly hanging = new Set<http.ServerResponse>();
  private waiters: (() => void)[] = [];

  constructor(private answer: (index: number, request: ReceivedWebhook) => Answer = () => 200) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** Requests it holds unanswered ('hang') now. */
  get hangingCount(): number {
    return [...this.hanging].filter((res) => !res.destroyed && !res.socket?.destroyed).length;
  }

  answerWith(answer: (index: number, request: ReceivedWebhook) => Answer): void {
    this.answer = answer;
  }

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // the test sees the text
        }
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        const received: ReceivedWebhook = { method: req.method ?? '', path: req.url ?? '', headers, raw, body, seq: this.received.length, globalSeq: arrivals++ };
        this.received.push(received);
        if (typeof body === 'object' && body !== null && 'event' in body) {
          const problem = openApiContract().problemWithWebhook(body);
          if (problem !== null) this.contractProblems.push(problem);
        }
        const answer = this.answer(received.seq, received);
        if (answer === 'hang') this.hanging.add(res);
        else res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        this.waiters.forEach((w) => w());
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this;
  }

  /** Resolves once `ok(received)` holds; mocha's timeout bounds it. */
  async waitFor(ok: (received: readonly ReceivedWebhook[]) => boolean): Promise<readonly ReceivedWebhook[]> {
    for (;;) {
      if (this.contractProblems.length > 0) throw new Error(this.contractProblems[0]);
      if (ok(this.received)) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiters = [];
    }
    return this.received;
  }

  /** The events received, by `event` of the body, in arrival order. */
  events(): string[] {
    return this.received.map((r) => (r.body as { event?: string }).event ?? '?');
  }

  releaseHanging(status = 200): void {
    for (const res of this.hanging) res.writeHead(status).end();
    this.hanging.clear();
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
