/**
 * A warm process's Chromium, started before its job with what every job of the process needs (the
 * replicas' routing and pin under SANDBOX_REPLICAS; nothing in production). A job that needs other
 * arguments (a sandbox meeting's certificate pin) closes it and launches its own (bot-browser.ts).
 */
import type { BotLog } from '../bot-log';
import { replicaHosts } from '../drivers/families';
import { warmBrowserArgs } from '../run/browser-args';
import type { WarmBrowser } from './bot-browser';
import { launchBrowser } from './launch-browser';
import type { ReplicaAddress } from './replica-routing';

/** Null when it could not start: the job then launches its own, as a cold process does. */
export const startWarmBrowser = async (replicas: ReplicaAddress | null, log: BotLog): Promise<WarmBrowser | null> => {
  const t0 = Date.now();
  try {
    const args = await warmBrowserArgs(replicas ? { address: replicas, hosts: replicaHosts() } : null, log);
    const browser = await launchBrowser({ args });
    log.info(`browser started before the job in ${Date.now() - t0} ms`);
    return { browser, args };
  } catch (err) {
    log.warn(`the browser could not be started before the job (${(err as Error).message}): it starts with the job`);
    return null;
  }
};
