import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { RoundRobinProxy } from './round-robin-proxy';
import { freePort, ServiceProcess } from './service-process';

export interface ClusterOptions {
  readonly databaseUrl: string;
  /** read models in MongoDB (MONGO_URL, MONGO_DATABASE) */
  readonly mongo?: { readonly url: string; readonly database: string };
  /** OBJECT_STORE_URL: the bucket every process stores artifacts in (a folder would be one machine's) */
  readonly objectStoreUrl?: string;
  readonly apis: number;
  readonly workers: number;
  readonly botSlots?: number;
  readonly leaseTtlSeconds: number;
  /** SCRIPTED_BOTS of the workers */
  readonly scriptedBots?: string;
  /** settings every process gets (development conveniences the test needs, by name) */
  readonly env?: Record<string, string>;
}

/**
 * The service as a deployment of several machines would run it, each process its own `npm start`
 * (`src/main.ts`): api instances behind a round-robin load balancer, workers whose bots call the API
 * through it (`PUBLIC_URL`), all on one PostgreSQL (and MongoDB when asked) and one bucket, one secret.
 */
export class Cluster {
  readonly apis: ServiceProcess[] = [];
  readonly workers: ServiceProcess[] = [];
  readonly proxy = new RoundRobinProxy();
  private readonly dirs: string[] = [];
  private readonly secret = randomBytes(32).toString('hex');

  private constructor(private readonly options: ClusterOptions) {}

  /** Starts the proxy, then the api instances one after another (the first takes every lease), then the workers together. */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(options);
    try {
      await cluster.proxy.start();
      for (let i = 1; i <= options.apis; i++) await cluster.addApi();
      await Promise.all(Array.from({ length: options.workers }, () => cluster.addWorker()));
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  private env(role: 'api' | 'worker', instanceId: string): Record<string, string> {
    const dir = mkdtempSync(path.join(os.tmpdir(), `mbs-${instanceId}-`));
    this.dirs.push(dir);
    const { databaseUrl, mongo, objectStoreUrl, leaseTtlSeconds } = this.options;
    return {
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      ...(mongo ? { MONGO_URL: mongo.url, MONGO_DATABASE: mongo.database } : {}),
      ...(objectStoreUrl ? { OBJECT_STORE_URL: objectStoreUrl } : {}),
      SERVICE_SECRET: this.secret,
      PUBLIC_URL: this.proxy.url,
      LEASE_TTL_SECONDS: String(leaseTtlSeconds),
      ROLE: role,
      INSTANCE_ID: instanceId,
      ...(role === 'worker' ? { BOT_SLOTS: String(this.options.botSlots ?? 4), ...(this.options.scriptedBots ? { SCRIPTED_BOTS: this.options.scriptedBots } : {}) } : {}),
      ...this.options.env,
    };
  }

  /**
   * One more api instance, added to the load balancer once it answers. An instance killed later stays in
   * the rotation, as behind a balancer without health checks, until the running ones are counted again.
   */
  async addApi(): Promise<ServiceProcess> {
    const api = new ServiceProcess(await freePort(), this.env('api', `api-${this.apis.length + 1}`));
    this.apis.push(api);
    await api.start();
    this.proxy.setUpstreams(this.apis.filter((a) => a.running).map((a) => a.url));
    return api;
  }

  /** Kills the newest api instances (the first holds the leases) or starts more, until `n` run behind the load balancer. */
  async scaleApisTo(n: number): Promise<void> {
    const running = () => this.apis.filter((a) => a.running);
    for (let live = running(); live.length > n; live = running()) await live.at(-1)!.kill();
    while (running().length < n) await this.addApi();
    this.proxy.setUpstreams(running().map((a) => a.url));
  }

  async addWorker(): Promise<ServiceProcess> {
    const worker = new ServiceProcess(await freePort(), this.env('worker', `worker-${this.workers.length + 1}`));
    this.workers.push(worker);
    await worker.start();
    return worker;
  }

  /** The `INSTANCE_ID` of a process of this cluster. */
  idOf(process: ServiceProcess): string {
    const index = this.apis.indexOf(process);
    return index >= 0 ? `api-${index + 1}` : `worker-${this.workers.indexOf(process) + 1}`;
  }

  /** The api instance whose process holds a lease now (from the database: owners are `<INSTANCE_ID>/<random>`). */
  async holderOf(lease: string): Promise<{ readonly api: ServiceProcess; readonly owner: string; readonly epoch: number } | null> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ owner: string; epoch: string }>(
        'SELECT owner, epoch FROM leases WHERE name = $1 AND owner IS NOT NULL AND expires_at > now()',
        [lease],
      );
      const row = rows[0];
      if (!row) return null;
      const api = this.apis.find((a) => row.owner.startsWith(`${this.idOf(a)}/`));
      return api ? { api, owner: row.owner, epoch: Number(row.epoch) } : null;
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.workers, ...this.apis].map((p) => p.killWithItsProcesses()));
    await this.proxy.stop();
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}
