/**
 * A test-only certificate authority for the bot's own connections (the customer's streaming WebSockets,
 * the bot images it fetches): `BOT_TEST_CA_PEM` names a PEM file whose certificate is trusted in
 * addition to the system's. Ignored with NODE_ENV=production, so no deployment can widen what the bot
 * trusts; TLS is never switched off.
 */
import * as fs from 'node:fs';
import type { BotLog } from './bot-log';

export const testTrustedCa = (log: BotLog, env: NodeJS.ProcessEnv = process.env): string | null => {
  const file = env.BOT_TEST_CA_PEM;
  if (!file) return null;
  if (env.NODE_ENV === 'production') {
    log.warn('BOT_TEST_CA_PEM ignored: NODE_ENV is production');
    return null;
  }
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    log.warn(`BOT_TEST_CA_PEM unreadable: ${(err as Error).message}`);
    return null;
  }
};
