/**
 * Teams meeting links and where the bot opens them (research note 3.1). MB opens a business
 * meetup-join link straight in the web client as an anonymous guest,
 * `https://<host>/v2/?meetingjoin=true#/l/meetup-join/<thread>/<ts>?context=<ctx>&anon=true`, which
 * skips the launcher and its `msteams:` deep link, and decodes a light-meetings link
 * (`/light-meetings/launch?coords=<base64 JSON {conversationId, tenantId, messageId, organizerId}>`)
 * into the same form (MB `teamsUrlParser.ts`). Short links (`/meet/<id>?p=<passcode>`) and the other
 * shapes are opened as they are: Teams redirects them itself, and the passcode must stay. Pure.
 */

export const teamsHosts = ['teams.microsoft.com', 'teams.live.com', 'teams.cloud.microsoft'] as const;
/** the business hosts, whose meetup-join links open in the `/v2/` web client (teams.live.com links are personal ones) */
const businessHosts = new Set(['teams.microsoft.com', 'teams.cloud.microsoft']);

export interface MeetingCoordinates {
  /** the thread, e.g. `19:meeting_<id>@thread.v2` */
  readonly conversationId: string;
  readonly tenantId?: string;
  readonly messageId?: string;
  readonly organizerId?: string;
}

/** The web client's join URL for a meeting thread: anonymous, in the browser. */
export const webClientJoinUrl = (host: string, thread: string, messageId: string, context: string | null): string => {
  const query = `${context === null ? '' : `context=${encodeURIComponent(context)}&`}anon=true`;
  return `https://${host}/v2/?meetingjoin=true#/l/meetup-join/${encodeURIComponent(thread)}/${encodeURIComponent(messageId)}?${query}`;
};

const decodeBase64Json = (value: string): unknown => {
  try {
    return JSON.parse(Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
  } catch {
    return null;
  }
};

/** The meeting a light-meetings `coords` parameter names, or null. */
export const lightMeetingCoordinates = (coords: string): MeetingCoordinates | null => {
  const value = decodeBase64Json(coords) as Record<string, unknown> | null;
  if (!value || typeof value !== 'object' || typeof value.conversationId !== 'string' || !value.conversationId) return null;
  const text = (key: string) => (typeof value[key] === 'string' && value[key] ? (value[key] as string) : undefined);
  return { conversationId: value.conversationId, tenantId: text('tenantId'), messageId: text('messageId'), organizerId: text('organizerId') };
};

const decoded = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** Where the bot navigates for a Teams meeting URL (see above); anything else unchanged. */
export const teamsNavigationUrl = (meetingUrl: string): string => {
  const url = new URL(meetingUrl);
  const host = url.hostname.toLowerCase();
  const meetupJoin = /^\/l\/meetup-join\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (meetupJoin && businessHosts.has(host)) {
    const thread = decoded(meetupJoin[1]!);
    const messageId = decoded(meetupJoin[2]!);
    if (thread !== null && messageId !== null) return webClientJoinUrl(host, thread, messageId, url.searchParams.get('context'));
  }
  if (/^\/light-meetings\/launch\/?$/.test(url.pathname) && url.searchParams.has('coords')) {
    const coords = lightMeetingCoordinates(url.searchParams.get('coords')!);
    if (coords) {
      const context = coords.tenantId || coords.organizerId ? JSON.stringify({ Tid: coords.tenantId, Oid: coords.organizerId }) : null;
      return webClientJoinUrl(host, coords.conversationId, coords.messageId ?? '0', context);
    }
  }
  return meetingUrl;
};
