/** A Chromium that reaches the sandbox's replicas under the real platforms' hosts, as a bot with SANDBOX_REPLICAS does. */
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, CHROMIUM_PATH } from '../../bot-runtime/browser/launch-browser';
import { replicaRouting } from '../../bot-runtime/browser/replica-routing';
import { pinArgs } from '../../bot-runtime/browser/sandbox-trust';
import { replicaHostNames } from '../../sandbox/replicas';
import type { RunningSandbox } from '../../sandbox/server';

/** Host-resolver rules to the sandbox and its certificate pinned; sound on (pages play meeting audio). */
export const launchReplicaBrowser = async (sandbox: RunningSandbox): Promise<Browser> => {
  const routing = (await replicaRouting(replicaHostNames(), { host: '127.0.0.1', port: sandbox.port }))!;
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ignoreDefaultArgs: ['--mute-audio'],
    args: chromiumArgs([...routing.args, ...pinArgs([routing.pin])]),
  });
};
