/**
 * Sending the real platforms' hosts to the sandbox's replicas, for tests: with
 * `SANDBOX_REPLICAS=<host>:<port>` the bot's Chromium resolves each replica host (meet.google.com, …)
 * to that address (`--host-resolver-rules`) and trusts the certificate the sandbox presents there,
 * and only that one (`--ignore-certificate-errors-spki-list`). Every other host resolves as usual.
 * A production bot (`NODE_ENV=production`) never does this, whatever its environment says.
 */
import { presentedSpki } from './sandbox-trust';

export interface ReplicaAddress {
  readonly host: string;
  readonly port: number;
}

export type ReplicaSetting =
  | { readonly ok: true; readonly address: ReplicaAddress | null }
  | { readonly ok: false; readonly error: string };

/** `host:port`, `[v6]:port`; null when it is not one. */
export const parseReplicaAddress = (value: string): ReplicaAddress | null => {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value.trim());
  if (!m) return null;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { host: m[1]!, port } : null;
};

export const replicaSettingFromEnv = (env: NodeJS.ProcessEnv): ReplicaSetting => {
  const value = env.SANDBOX_REPLICAS;
  if (value === undefined || value.trim() === '') return { ok: true, address: null };
  if (env.NODE_ENV === 'production') return { ok: false, error: 'SANDBOX_REPLICAS is ignored: a production bot never sends real platform hosts to a sandbox' };
  const address = parseReplicaAddress(value);
  return address ? { ok: true, address } : { ok: false, error: `SANDBOX_REPLICAS must be <host>:<port>, got "${value}"` };
};

export const hostResolverRules = (hosts: readonly string[], to: ReplicaAddress): string => hosts.map((h) => `MAP ${h} ${to.host}:${to.port}`).join(', ');

export interface ReplicaRouting {
  readonly args: string[];
  /** the sandbox certificate's key, to pin */
  readonly pin: string;
}

/** Routing for `hosts` to the sandbox at `to` (reads the certificate it presents there); null without hosts. */
export const replicaRouting = async (hosts: readonly string[], to: ReplicaAddress): Promise<ReplicaRouting | null> => {
  if (hosts.length === 0) return null;
  const pin = await presentedSpki(hosts[0]!, to.port, 5000, to.host.replace(/^\[|\]$/g, ''));
  return { args: [`--host-resolver-rules=${hostResolverRules(hosts, to)}`], pin };
};
