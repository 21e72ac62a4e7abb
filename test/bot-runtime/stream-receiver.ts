/**
 * A customer's streaming endpoint for tests: a real `ws` server on a free loopback port that keeps
 * every connection's messages with their arrival times, and can drop a connection or send audio in.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface ReceivedMessage {
  readonly at: number;
  readonly text: string | null;
  readonly binary: Buffer | null;
}

export interface ReceivedConnection {
  readonly path: string;
  readonly openedAt: number;
  readonly messages: ReceivedMessage[];
  readonly socket: WebSocket;
  closedAt: number | null;
}

export class StreamReceiver {
  readonly connections: ReceivedConnection[] = [];
  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket, req) => {
      const conn: ReceivedConnection = { path: req.url ?? '/', openedAt: Date.now(), messages: [], socket, closedAt: null };
      this.connections.push(conn);
      socket.on('message', (data, isBinary) => {
        const buf = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
        conn.messages.push({ at: Date.now(), text: isBinary ? null : buf.toString('utf8'), binary: isBinary ? buf : null });
      });
      socket.on('close', () => (conn.closedAt = Date.now()));
    });
  }

  static async start(): Promise<StreamReceiver> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new StreamReceiver(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `ws://127.0.0.1:${this.port}${path}`;
  }

  on(path: string): ReceivedConnection[] {
    return this.connections.filter((c) => c.path === path);
  }

  async waitFor(predicate: () => boolean, what: string, timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    for (const c of this.connections) c.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const framesOf = (conn: ReceivedConnection): ReceivedMessage[] => conn.messages.filter((m) => m.binary !== null);
export const textsOf = (conn: ReceivedConnection): string[] => conn.messages.flatMap((m) => (m.text === null ? [] : [m.text]));

/** RMS of S16LE samples, 0..1 */
export const rmsOf = (pcm: Buffer): number => {
  let sum = 0;
  const n = Math.floor(pcm.length / 2);
  for (let i = 0; i < n; i++) {
    const v = pcm.readInt16LE(i * 2) / 32768;
    sum += v * v;
  }
  return n === 0 ? 0 : Math.sqrt(sum / n);
};

/** The customer talks: S16LE mono at `rate`, 100 ms per message at real-time pace. */
export const sendAtRealTime = async (conn: ReceivedConnection, pcm: Buffer, rate: number): Promise<void> => {
  const chunk = (rate / 10) * 2;
  const startedAt = Date.now();
  for (let i = 0, n = 0; i < pcm.length; i += chunk, n++) {
    conn.socket.send(pcm.subarray(i, i + chunk));
    const due = startedAt + (n + 1) * 100;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
  }
};
