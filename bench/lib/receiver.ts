import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A bare webhook receiver: reads the body, notes when each bot's first message arrived, answers 200. */
export interface Receiver {
  readonly url: string;
  /** arrival time (performance.now) by bot id */
  readonly arrivals: Map<string, number>;
  whenAll(n: number): Promise<void>;
  close(): void;
}

export const startReceiver = async (): Promise<Receiver> => {
  const arrivals = new Map<string, number>();
  let waiting: { n: number; resolve: () => void } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { bot_id: string } };
      if (!arrivals.has(body.data.bot_id)) arrivals.set(body.data.bot_id, performance.now());
      res.writeHead(200).end();
      if (waiting && arrivals.size >= waiting.n) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    whenAll: (n) => (arrivals.size >= n ? Promise.resolve() : new Promise((resolve) => (waiting = { n, resolve }))),
    close: () => server.close(),
  };
};
