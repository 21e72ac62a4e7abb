/**
 * A test-only certificate authority for the bot's own connections (the customer's streaming WebSockets,
 * the bot images it fetches), trusted in addition to the system's: the PEM the service passed with the job
 * (it read its own `BOT_TEST_CA_PEM`), or, for a bot run on its own, the PEM file `BOT_TEST_CA_PEM` names.
 * Ignored with NODE_ENV=production, so no deployment can widen what the bot trusts; TLS is never switched off.
 */
import * as fs from 'node:fs';
import type { BotLog } from './bot-log';

export const testTrustedCa = (log: BotLog, env: NodeJS.ProcessEnv = process.env, fromService: string | null = null): string | null => {
  const file = env.BOT_TEST_CA_PEM;
  if (!file && !fromService) return null;
  if (env.NODE_ENV === 'production') {
    log.warn('the test certificate authority is ignored: NODE_ENV is production');
    return null;
  }
  if (fromService) return fromService;
  try {
    return fs.readFileSync(file!, 'utf8');
  } catch (err) {
    log.warn(`BOT_TEST_CA_PEM unreadable: ${(err as Error).message}`);
    return null;
  }
};
