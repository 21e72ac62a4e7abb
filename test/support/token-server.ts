import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A customer's token URL: what it answers is scripted per test; every request it got is kept. */
export class TokenServer {
  readonly requests: URL[] = [];
  answer: (res: http.ServerResponse, url: URL) => unknown = (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('obf-from-url-0001');
  private server: http.Server | null = null;
  private readonly open = new Set<http.ServerResponse>();

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://token');
      this.requests.push(url);
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      void Promise.resolve(this.answer(res, url)).catch(() => res.writeHead(500).end());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

