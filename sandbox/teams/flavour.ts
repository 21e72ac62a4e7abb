/**
 * The Microsoft Teams replica (research note 3.8): every link shape of 3.1 on teams.microsoft.com,
 * teams.live.com and teams.cloud.microsoft (links.ts), the launcher, the web client (`/v2/`, `/_`,
 * `/light-meetings/launch`: one page that finds its meeting in the URL's fragment or `coords`, as the
 * real client does), the sign-in page on login.microsoftonline.com, and the sandbox's page API under
 * /api. Created through the control API with `{platform: "tm", replica: "teams", …settings.ts}`.
 */
import { handlePage } from '../page-routes';
import { cookieOf, redirect as redirectTo, sendHtml, sendJson } from '../http-util';
import type { Identity } from '../identity/identity-registry';
import { handleMicrosoftLogin } from '../identity/microsoft-login';
import { meetingIdPattern, type Meeting } from '../meeting-state';
import type { MeetingRegistry } from '../registry';
import type { ReplicaFlavour, ReplicaRequest } from '../replicas';
import {
  CLOUD_HOST,
  LIVE_HOST,
  LOGIN_HOST,
  PRODUCT_HOST,
  PRODUCT_PATH,
  TEAMS_HOST,
  lightMeetingPath,
  loginUrl,
  meetingIdOfThread,
  passcodeOf,
  shortIdOf,
  teamsMeetingUrl,
  webClientPath,
} from './links';
import { teamsBadUrlPage, teamsClientPage, teamsLandingPage, teamsLauncherPage, teamsProductPage } from './pages';
import { parseTeamsSettings, type TeamsSettings } from './settings';
import { teamsLobbyWordingTexts, teamsTextsFor } from './texts';
import { shapeConfig, withQuotes, type RedirectTargets } from '../replica-shapes';

const FLAVOUR = 'teams';
/** where the web client asks for its meeting's settings (the page cannot know them before reading its URL's fragment) */
export const CLIENT_CONFIG_PATH = '/api/replica/meetings/';

const settingsOf = (meeting: Meeting) => meeting.replica!.settings as unknown as TeamsSettings;

const meetingOfThread = (registry: MeetingRegistry, segment: string): Meeting | null => {
  let thread: string;
  try {
    thread = decodeURIComponent(segment);
  } catch {
    return null;
  }
  const id = meetingIdOfThread(thread);
  return id ? registry.find(id, 'tm', FLAVOUR) : null;
};

const meetingOfShortLink = (registry: MeetingRegistry, shortId: string, passcode: string | null): Meeting | null => {
  for (const meeting of registry.meetings.values()) {
    if (meeting.platform === 'tm' && meeting.replica?.flavour === FLAVOUR && shortIdOf(meeting.meeting_id) === shortId) {
      return passcode === passcodeOf(meeting.meeting_id) ? meeting : null;
    }
  }
  return null;
};

/** Where a redirect wall or ending sends the page (replica-shapes.ts). */
const redirectsFor = (meetingId: string, host: string): RedirectTargets => ({
  sign_in: loginUrl(`https://${host}${webClientPath(meetingId)}`),
  landing: `https://${TEAMS_HOST}/`,
  product: `https://${PRODUCT_HOST}${PRODUCT_PATH}`,
});

const redirect = (res: ReplicaRequest['res'], location: string) => res.writeHead(302, { location, 'cache-control': 'no-store' }).end();

/** The Teams web client's session cookie (host-only): set when the Microsoft sign-in's code is redeemed. */
const SESSION_COOKIE = 'sandbox_teams_session';

/** The signed-in account of the request, as the page API and the client's configuration see it. */
const sessionOf = (request: ReplicaRequest): Identity | null => request.identity.session(cookieOf(request.req, SESSION_COOKIE), 'tm');

const handle = async (request: ReplicaRequest): Promise<void> => {
  const { registry, req, res, host, path, query, identity } = request;
  if (host === LOGIN_HOST) {
    await handleMicrosoftLogin(identity, req, res, path, query);
    return;
  }
  // Back from the Microsoft sign-in with its one-time code: the session, then the page asked for without the code.
  const code = query.get('code');
  if (code !== null && req.method === 'GET') {
    const signedIn = identity.redeemCode(code);
    const back = new URL(`https://${host}${path}`);
    for (const [k, v] of query) if (k !== 'code') back.searchParams.append(k, v);
    if (!signedIn) {
      sendHtml(res, 400, teamsBadUrlPage());
      return;
    }
    redirectTo(res, back.toString(), { 'set-cookie': `${SESSION_COOKIE}=${identity.openSession(signedIn)}; Path=/; Secure; HttpOnly; SameSite=Lax` });
    return;
  }
  if (path === '/go') {
    const who = sessionOf(request);
    sendHtml(res, 200, `<!doctype html><title>Microsoft Teams</title><div data-tid="app-signed-in">${who ? 'Signed in' : 'Not signed in'}</div>`);
    return;
  }
  if (host === PRODUCT_HOST) {
    sendHtml(res, 200, teamsProductPage());
    return;
  }
  if (path.startsWith('/api/meetings/')) {
    await handlePage(registry, 'tm', req, res, path, query, sessionOf(request));
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: 'method not allowed' });
    return;
  }
  if (path.startsWith(CLIENT_CONFIG_PATH)) {
    const id = path.slice(CLIENT_CONFIG_PATH.length);
    const meeting = meetingIdPattern('tm').test(id) ? registry.find(id, 'tm', FLAVOUR) : null;
    if (!meeting) sendJson(res, 404, { error: 'no such meeting' });
    else {
      const id = meeting.meeting_id;
      const settings = settingsOf(meeting);
      const who = sessionOf(request);
      sendJson(res, 200, {
        meeting_id: id,
        settings,
        login_url: loginUrl(`https://${host}${webClientPath(id)}`),
        light_path: lightMeetingPath(id),
        texts: withQuotes(teamsTextsFor(settings), settings.quotes),
        lobby_text: withQuotes(teamsLobbyWordingTexts[settings.lobby_wording], settings.quotes),
        shape: shapeConfig(settings, redirectsFor(id, host)),
        organisation_only: meeting.organisation_only,
        signed_in: who && { display_name: who.display_name },
      });
    }
    return;
  }
  if (path === '/') {
    sendHtml(res, 200, teamsLandingPage());
    return;
  }
  // the web client: its meeting is in the fragment (`/v2/#/l/meetup-join/…`, `/_#/…`) or in `coords`
  if (/^\/(v2\/?|_|light-meetings\/launch\/?)$/.test(path)) {
    sendHtml(res, 200, teamsClientPage(CLIENT_CONFIG_PATH));
    return;
  }
  if (path === '/dl/launcher/launcher.html' && /^\/(?!\/)/.test(query.get('url') ?? '')) {
    sendHtml(res, 200, teamsLauncherPage(query.get('url')!));
    return;
  }
  // meetup-join links and short links: the launcher (or a sign-in redirect, or Teams' own redirect to light-meetings)
  const thread = /^\/l\/(?:meetup-join|meeting)\/([^/]+)\/[^/]+\/?$/.exec(path)?.[1];
  const shortId = /^\/meet\/(\d{10,16})\/?$/.exec(path)?.[1];
  const meeting = thread ? meetingOfThread(registry, thread) : shortId ? meetingOfShortLink(registry, shortId, query.get('p')) : null;
  if (!meeting) {
    sendHtml(res, 404, teamsBadUrlPage());
    return;
  }
  const settings = settingsOf(meeting);
  const guestOfOrganisationMeeting = meeting.organisation_only !== null && sessionOf(request) === null;
  if (settings.wall === 'login_redirect' || guestOfOrganisationMeeting) redirect(res, loginUrl(`https://${host}${path}`));
  else if (shortId && settings.short_link === 'light') redirect(res, lightMeetingPath(meeting.meeting_id));
  else sendHtml(res, 200, teamsLauncherPage(webClientPath(meeting.meeting_id)));
};

export const teamsReplica: ReplicaFlavour = {
  name: FLAVOUR,
  platform: 'tm',
  hosts: [TEAMS_HOST, LIVE_HOST, CLOUD_HOST, LOGIN_HOST, PRODUCT_HOST],
  meetingUrl: (meetingId, settings) => teamsMeetingUrl(meetingId, parseTeamsSettings(settings ?? {}).link),
  options: (body) => ({ replica: { flavour: FLAVOUR, settings: { ...parseTeamsSettings(body) } } }),
  handle,
};
