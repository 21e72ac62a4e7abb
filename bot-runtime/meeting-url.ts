import type { Platform } from '../contract/bot-contract';

/** A meeting URL the bot knows how to join. */
export interface MeetingLocation {
  readonly platform: Platform;
  readonly url: string;
  /** true for the local sandbox hosts (`vc.localhost`, `tm.localhost`, `mt.localhost`) */
  readonly sandbox: boolean;
}

export type MeetingUrlCheck =
  | { readonly ok: true; readonly meeting: MeetingLocation }
  | { readonly ok: false; readonly reason: string };

const sandboxHosts: Record<string, Platform> = { 'vc.localhost': 'vc', 'tm.localhost': 'tm', 'mt.localhost': 'mt' };

const productionPlatform = (host: string): Platform | null => {
  if (host === 'zoom.us' || host.endsWith('.zoom.us')) return 'vc';
  if (host === 'teams.microsoft.com' || host === 'teams.live.com' || host === 'teams.cloud.microsoft') return 'tm';
  if (host === 'meet.google.com') return 'mt';
  return null;
};

/**
 * Path shapes of a meeting on each platform (sandbox and production share them), as the research
 * note lists them (../shared/research/real-platforms.md 3.1, 4.1): Zoom's join, personal, web-client
 * and webinar links; Teams' meetup-join, meeting, short, launcher, light-meetings and v2/`_#` links.
 */
const pathPatterns: Record<Platform, readonly RegExp[]> = {
  vc: [/^\/[jsw]\/\d{9,11}\/?$/, /^\/wc\/(join\/)?\d{9,11}(\/.*)?$/],
  tm: [
    /^\/l\/(meetup-join|meeting)\/[^/]+(\/.*)?$/,
    /^\/meet\/[A-Za-z0-9_-]+\/?$/,
    /^\/dl\/launcher\/.+$/,
    /^\/light-meetings\/launch\/?$/,
    /^\/(_|v2\/?)$/,
  ],
  mt: [/^\/[a-z]{3}-[a-z]{4}-[a-z]{3}\/?$/],
};

/**
 * Checks a meeting URL: HTTPS, a known host, and a meeting path of that host's platform. When the job
 * names a platform, the URL must belong to it.
 */
export const checkMeetingUrl = (raw: string, expected?: Platform): MeetingUrlCheck => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'meeting URLs must use HTTPS' };
  const host = url.hostname.toLowerCase();
  const sandboxPlatform = sandboxHosts[host];
  const platform = sandboxPlatform ?? productionPlatform(host);
  if (!platform) return { ok: false, reason: `unknown meeting host ${host}` };
  if (expected && expected !== platform) {
    return { ok: false, reason: `the URL is a ${platform} meeting, the job says ${expected}` };
  }
  if (!pathPatterns[platform].some((p) => p.test(url.pathname))) {
    return { ok: false, reason: `not a ${platform} meeting path: ${url.pathname}` };
  }
  return { ok: true, meeting: { platform, url: url.toString(), sandbox: sandboxPlatform !== undefined } };
};
