import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

const forwardable = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

/** Methods a load balancer may send again to another instance when the first one failed before answering. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A load balancer in front of several service instances, as a deployment would have one: plain HTTP,
 * requests handed out round-robin over keep-alive connections, streamed answers (bots' long polls).
 * Like nginx's `proxy_next_upstream error`, a request that could not reach an instance (refused: the
 * instance is down) goes to the next, as does an idempotent request whose instance failed before
 * answering; a POST that may have reached an instance is never sent twice (502 instead). No health
 * checks: a dead instance stays in the rotation and is skipped request by request.
 */
export class RoundRobinProxy {
  private server: http.Server | null = null;
  private next = 0;
  // Idle connections are dropped before the instances' own keep-alive timeout (Node's 5 s) would close them
  // under a request just sent: such a request could not be told from one an instance died on.
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4000 });
  /** requests forwarded per upstream (index in the list of the time) */
  readonly forwarded = new Map<string, number>();

  constructor(private upstreams: readonly string[] = []) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Which instances it hands requests to from now on (e.g. `http://127.0.0.1:1234`). */
  setUpstreams(upstreams: readonly string[]): void {
    this.upstreams = upstreams;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // Buffered so that a request refused by one instance can go to the next (tests' bodies are small).
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const upstreams = this.upstreams;
    let lastError: Error | null = null;
    // Each request starts at the next instance in turn and goes on from there: concurrent requests must not
    // send one another's retries back to the instance that just refused.
    const first = this.next++;
    for (let tried = 0; tried < upstreams.length; tried++) {
      const upstream = upstreams[(first + tried) % upstreams.length]!;
      const outcome = await this.forward(upstream, req, res, body);
      if (outcome === 'answered') return;
      lastError = outcome.error;
      if (!outcome.mayRetry || res.destroyed) break;
    }
    if (!res.headersSent && !res.destroyed) res.writeHead(502, { 'content-type': 'text/plain' }).end(`no instance answered: ${lastError?.message ?? 'none configured'}`);
    else res.destroy();
  }

  private forward(upstream: string, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<'answered' | { error: Error; mayRetry: boolean }> {
    const target = new URL(upstream);
    return new Promise((resolve) => {
      let answered = false;
      const out = http.request(
        {
          agent: this.agent,
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...forwardable(req.headers), 'content-length': String(body.length), 'x-forwarded-for': req.socket.remoteAddress ?? '' },
        },
        (answer) => {
          answered = true;
          this.forwarded.set(upstream, (this.forwarded.get(upstream) ?? 0) + 1);
          res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
          answer.pipe(res);
          // An instance that dies while streaming an answer: the client sees its connection cut, as it would.
          answer.on('error', () => res.destroy());
          answer.on('aborted', () => res.destroy());
          resolve('answered');
        },
      );
      // The client gave up (a bot's long poll aborted): so does the request to the instance.
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      out.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return res.destroy();
        resolve({ error, mayRetry: error.code === 'ECONNREFUSED' || IDEMPOTENT.has(req.method ?? '') });
      });
      out.end(body);
    });
  }

  async stop(): Promise<void> {
    this.agent.destroy();
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
