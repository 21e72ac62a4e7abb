/**
 * Where subscribers (side effects: settlement, webhooks, the orphan reconciler) keep the last global
 * position they fully handled. Unlike the read models, this must survive a restart: a webhook sender that
 * forgot its place would go through the whole history again at every start.
 */
export interface CheckpointStore {
  loadCheckpoint(name: string): Promise<bigint | null>;
  saveCheckpoint(name: string, position: bigint): Promise<void>;
}
