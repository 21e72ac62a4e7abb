import type { BotUser } from '../../../contract/host/bot-user';

/**
 * Who a bot process runs as. A service running as root switches to the bot user (made by the install
 * script), so that neither the bot nor its Chromium can read DATA_DIR (the event log, checkpoints, the
 * service secret) or the service's environment. A service that cannot switch user runs bots as itself only
 * when told so (`BOT_SAME_USER=1`, development only), and refuses to run them otherwise. Pure.
 */
export type BotIdentity =
  | { readonly kind: 'bot_user'; readonly user: BotUser }
  | { readonly kind: 'service_user' }
  | { readonly kind: 'refused'; readonly reason: string };

export const botIdentityFor = (serviceUid: number, botUserName: string, botUser: BotUser | null, sameUserAllowed: boolean): BotIdentity => {
  if (serviceUid === 0) {
    if (sameUserAllowed) return { kind: 'refused', reason: 'BOT_SAME_USER=1 is for a service that cannot switch user: as root, bots always run as BOT_USER; unset it' };
    if (!botUser) return { kind: 'refused', reason: `the bot user "${botUserName}" does not exist: run scripts/install-system-packages.sh as root` };
    if (botUser.uid === 0) return { kind: 'refused', reason: `BOT_USER "${botUserName}" is root: bots need an unprivileged user` };
    return { kind: 'bot_user', user: botUser };
  }
  if (sameUserAllowed) return { kind: 'service_user' };
  return {
    kind: 'refused',
    reason:
      `the service runs as uid ${serviceUid}, not root, so it cannot run bots as "${botUserName}": a bot would read DATA_DIR. ` +
      'Run it as root (bots then run as the bot user), or, for development only, set BOT_SAME_USER=1',
  };
};
