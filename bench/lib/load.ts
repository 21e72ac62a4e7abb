import http from 'node:http';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly statuses: Record<number, number>;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Sends `total` requests with `concurrency` in flight over keep-alive connections and times each one. */
export const runLoad = async (options: {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: () => string;
  readonly total: number;
  readonly concurrency: number;
}): Promise<LoadResult> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const target = new URL(options.url);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const body = options.body();
      const started = performance.now();
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: options.method, headers: { ...options.headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const worker = async () => {
    while (sent < options.total) {
      sent++;
      await one();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requests: latencies.length, seconds, perSecond: latencies.length / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), statuses };
};
