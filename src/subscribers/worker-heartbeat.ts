import type Logger from 'bunyan';
import type { CheckpointStore, Lease } from '../adapters/checkpoint-store/port';
import type { LeaseTiming } from './background/leased-part';
import { workerLeaseName } from './end-bots-of-vanished-workers';

/** Two processes configured with one INSTANCE_ID: their bots would be mistaken for each other's. */
export class InstanceIdInUse extends Error {
  constructor(instanceId: string, holder: string) {
    super(
      `INSTANCE_ID ${instanceId} is in use by another live process (${holder} keeps renewing its lease ${workerLeaseName(instanceId)}): ` +
        'give every worker its own INSTANCE_ID',
    );
    this.name = 'InstanceIdInUse';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A worker's heartbeat: the lease `worker-<INSTANCE_ID>`, held while the process lives and renewed every
 * third of its TTL. When the process dies, the lease lapses, and the api instances end its bots that went
 * silent with it (end-bots-of-vanished-workers.ts). At start, a lease still held by another owner is a
 * previous run of this worker that crashed (it lapses within a TTL, and is then taken) or another live
 * process with the same INSTANCE_ID (it keeps renewing): the start fails loudly rather than share the name.
 */
export class WorkerHeartbeat {
  private lease: Lease | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: { readonly checkpoints: CheckpointStore; readonly instanceId: string; readonly owner: string; readonly timing: LeaseTiming; readonly log: Logger },
  ) {}

  async start(): Promise<void> {
    const { checkpoints, instanceId, owner, timing } = this.deps;
    const name = workerLeaseName(instanceId);
    let seen: Lease | null = null;
    for (;;) {
      this.lease = await checkpoints.acquireLease(name, owner, timing.ttlMs);
      if (this.lease) break;
      const holder = await checkpoints.readLease(name);
      // Renewed (or taken by a third process) since the last look: someone alive holds this name.
      if (seen && holder && (holder.owner !== seen.owner || holder.expiresAt.getTime() > seen.expiresAt.getTime())) throw new InstanceIdInUse(instanceId, holder.owner);
      if (!seen && holder) this.deps.log.warn({ lease: name, holder: holder.owner }, 'the heartbeat lease of this INSTANCE_ID is held: waiting for it to lapse (a previous run that crashed)');
      seen = holder ?? seen;
      await sleep(Math.max(50, Math.min(timing.renewEveryMs, 1000)));
    }
    this.timer = setInterval(() => void this.renew(), timing.renewEveryMs);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    const { checkpoints, owner, timing, log } = this.deps;
    try {
      this.lease = this.lease ? await checkpoints.renewLease(this.lease, timing.ttlMs) : null;
      // Lapsed (the process was paused, or the store unreachable for a TTL): its bots may be ended as vanished; take it again.
      if (this.lease === null) {
        log.error({ lease: workerLeaseName(this.deps.instanceId) }, 'the worker heartbeat lapsed: this worker counted as vanished for a while');
        this.lease = await checkpoints.acquireLease(workerLeaseName(this.deps.instanceId), owner, timing.ttlMs);
      }
    } catch (err) {
      log.error({ err }, 'could not renew the worker heartbeat');
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.lease) await this.deps.checkpoints.releaseLease(this.lease).catch(() => undefined);
    this.lease = null;
  }
}
