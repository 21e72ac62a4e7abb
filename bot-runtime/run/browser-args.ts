/**
 * The Chromium arguments a run needs to reach its meeting: the sandbox certificate's pin for a
 * sandbox URL whose job says to trust it, and, with SANDBOX_REPLICAS, the replica hosts routed to the
 * sandbox with its certificate pinned. Chromium gets one pin list with every key it may trust.
 */
import type { BotLog } from '../bot-log';
import { replicaRouting, type ReplicaAddress } from '../browser/replica-routing';
import { pinArgs, sandboxPin } from '../browser/sandbox-trust';
import type { MeetingLocation } from '../meeting-url';

type Replicas = { readonly address: ReplicaAddress; readonly hosts: readonly string[] } | null;

/** The replica hosts routed to the sandbox, and the key of the certificate it presents there. */
const replicaArgs = async (replicas: Replicas, log: BotLog): Promise<{ args: string[]; pins: string[] }> => {
  if (!replicas) return { args: [], pins: [] };
  const where = `${replicas.address.host}:${replicas.address.port}`;
  let routing;
  try {
    routing = await replicaRouting(replicas.hosts, replicas.address);
  } catch (err) {
    throw new Error(`The sandbox replicas at ${where} are unreachable: ${(err as Error).message}`);
  }
  if (!routing) return { args: [], pins: [] };
  log.info(`SANDBOX_REPLICAS: ${replicas.hosts.join(', ')} go to the sandbox at ${where}`);
  return { args: routing.args, pins: [routing.pin] };
};

/** What a browser started before its job is started with: what every job of this process needs (the replicas' routing). */
export const warmBrowserArgs = async (replicas: Replicas, log: BotLog): Promise<string[]> => {
  const { args, pins } = await replicaArgs(replicas, log);
  return [...args, ...pinArgs(pins)];
};

export const browserArgsFor = async (
  meeting: MeetingLocation,
  trustSandbox: boolean,
  replicas: Replicas,
  log: BotLog,
): Promise<string[]> => {
  const pins: string[] = [];
  if (trustSandbox && meeting.sandbox) {
    try {
      pins.push(await sandboxPin(meeting.url));
    } catch (err) {
      throw new Error(`The meeting host is unreachable: ${(err as Error).message}`);
    }
  }
  if (trustSandbox && !meeting.sandbox) log.warn('trust_sandbox_certificate ignored: not a sandbox URL');
  const routed = await replicaArgs(replicas, log);
  return [...routed.args, ...pinArgs([...pins, ...routed.pins])];
};
