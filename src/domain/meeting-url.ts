/**
 * Meeting URLs: which platform a URL belongs to, and one spelling per meeting for deduplication.
 * Pure (the WHATWG URL parser is a global, not I/O), so the domain and the HTTP layer share it.
 */
export type Platform = 'vc' | 'tm' | 'mt';

export interface PlatformOptions {
  /** the local sandbox platform's `*.localhost` hosts count as meeting hosts */
  readonly sandboxHosts: boolean;
}

const exactHosts: ReadonlyMap<string, Platform> = new Map<string, Platform>([
  ['zoom.us', 'vc'],
  ['teams.microsoft.com', 'tm'],
  ['teams.live.com', 'tm'],
  ['teams.cloud.microsoft', 'tm'],
  ['meet.google.com', 'mt'],
]);

const sandboxHosts: ReadonlyMap<string, Platform> = new Map<string, Platform>([
  ['vc.localhost', 'vc'],
  ['tm.localhost', 'tm'],
  ['mt.localhost', 'mt'],
]);

const parse = (url: string): URL | null => {
  try {
    return new URL(url.trim());
  } catch {
    return null;
  }
};

/** `zoom.us.` names the same host as `zoom.us`; a lookup must not treat it as unknown or as different. */
const hostOf = (url: URL): string => url.hostname.replace(/\.$/, '');

/**
 * The platform of a meeting URL by its host alone, or null. Scheme and path rules belong to the caller
 * (the API refuses anything but HTTPS). Only zoom.us takes subdomains (company vanity hosts such as
 * `acme.zoom.us`); the other platforms serve meetings from their one host.
 */
export const platformOfMeetingUrl = (url: string, options: PlatformOptions): Platform | null => {
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return null;
  const host = hostOf(parsed);
  const known = exactHosts.get(host) ?? (options.sandboxHosts ? sandboxHosts.get(host) : undefined);
  if (known) return known;
  return host.endsWith('.zoom.us') ? 'vc' : null;
};

/**
 * One spelling per meeting, for deduplication (`allow_multiple_bots: false`): lower-case scheme and host
 * (the parser does both), no default port, no user info, no fragment, no trailing slash, query
 * parameters sorted by name. Path and query values are kept as they are: meeting ids and passwords
 * are case-sensitive. A string that does not parse is returned trimmed, so the function is total.
 */
export const normaliseMeetingUrl = (url: string): string => {
  const parsed = parse(url);
  if (!parsed) return url.trim();
  parsed.searchParams.sort();
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  const path = parsed.pathname.replace(/\/+$/, '');
  const query = parsed.searchParams.toString();
  return `${parsed.protocol}//${hostOf(parsed)}${port}${path}${query === '' ? '' : `?${query}`}`;
};
