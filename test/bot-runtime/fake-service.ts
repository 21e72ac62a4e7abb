/**
 * A tiny HTTP server playing the service's side of the internal bot API (contract/bot-contract.ts):
 * reports, long-polled control requests, control results and artifact uploads, with a bearer token.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BotReport, ControlRequest, ControlResult, LiveStatus } from '../../contract/bot-contract';

export class FakeService {
  readonly reports: BotReport[] = [];
  readonly results = new Map<string, ControlResult>();
  readonly artifacts = new Map<string, { contentType: string; body: Buffer }>();
  readonly polls: number[] = [];
  unauthorized = 0;
  private pending: ControlRequest[] = [];
  private pollWaiters: (() => void)[] = [];
  private changeWaiters: (() => void)[] = [];
  private server: http.Server | null = null;
  private n = 0;

  constructor(
    readonly botId: string,
    readonly token: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
  }

  async stop(): Promise<void> {
    for (const w of this.pollWaiters.splice(0)) w();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()));
  }

  /** Queues a control request for the bot; resolves with the bot's result. */
  async send(request: { kind: 'leave' } | { kind: 'chat'; message: string }, timeoutMs = 30_000): Promise<ControlResult> {
    const id = `ctl-${++this.n}`;
    this.pending.push({ ...request, id } as ControlRequest);
    for (const w of this.pollWaiters.splice(0)) w();
    await this.waitFor(() => this.results.has(id), `the result of ${id}`, timeoutMs);
    return this.results.get(id)!;
  }

  statuses(): LiveStatus[] {
    return this.reports.flatMap((r) => (r.kind === 'status' ? [r.status] : []));
  }

  async waitFor(predicate: () => boolean, what: string, timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; statuses ${JSON.stringify(this.statuses())}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.changeWaiters.push(() => (clearTimeout(t), resolve()));
      });
    }
  }

  private changed(): void {
    for (const w of this.changeWaiters.splice(0)) w();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const prefix = `/internal/bots/${this.botId}/`;
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      this.unauthorized++;
      res.writeHead(401).end();
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    const rest = url.pathname.slice(prefix.length);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);

    if (req.method === 'POST' && rest === 'reports') {
      this.reports.push(JSON.parse(body.toString()) as BotReport);
      res.writeHead(204).end();
    } else if (req.method === 'GET' && rest === 'control') {
      const wait = Number(url.searchParams.get('wait_seconds') ?? '20');
      this.polls.push(wait);
      if (this.pending.length === 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait * 1000);
          this.pollWaiters.push(() => (clearTimeout(t), resolve()));
          req.on('close', () => (clearTimeout(t), resolve()));
        });
      }
      const requests = this.pending.splice(0);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests }));
    } else if (req.method === 'POST' && /^control\/[^/]+\/result$/.test(rest)) {
      const id = decodeURIComponent(rest.split('/')[1]!);
      this.results.set(id, JSON.parse(body.toString()) as ControlResult);
      res.writeHead(204).end();
    } else if (req.method === 'POST' && rest === 'vc-join') {
      // nothing to sign: the bot joins through the web client, as with a service without SDK credentials
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sdk: null, retry_seconds: 30, renewable: false }));
    } else if (req.method === 'PUT' && rest.startsWith('artifacts/')) {
      const key = rest.slice('artifacts/'.length).split('/').map(decodeURIComponent).join('/');
      this.artifacts.set(key, { contentType: String(req.headers['content-type']), body });
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
    this.changed();
  }
}
