/**
 * The Google Meet replica (research note 2.11): meetings at https://meet.google.com/<abc-defg-hij>
 * (`hl` and other query parameters accepted and ignored), Google's sign-in on accounts.google.com and its
 * assertion consumer service on www.google.com (identity/google-accounts.ts),
 * the page API of the sandbox under /api on meet.google.com. Created through the control API with
 * `{platform: "mt", replica: "meet", …settings.ts}`.
 */
import { handlePage } from '../page-routes';
import { cookieOf, sendHtml, sendJson } from '../http-util';
import { GOOGLE_ACS_HOST, GOOGLE_SESSION_COOKIE, handleGoogleAccounts, handleGoogleAcs } from '../identity/google-accounts';
import { meetingIdPattern } from '../meeting-state';
import type { ReplicaFlavour, ReplicaRequest } from '../replicas';
import { meetLandingPage, meetMeetingPage, meetNotFoundPage, meetProductPage, meetUnrecognisedPage } from './pages';
import { parseMeetSettings, type MeetSettings } from './settings';
import { MEET_HOST, PRODUCT_HOST, SIGN_IN_HOST } from './hosts';

const handle = async ({ registry, req, res, host, path, query, identity }: ReplicaRequest): Promise<void> => {
  if (host === SIGN_IN_HOST) {
    await handleGoogleAccounts(identity, req, res, path, query);
    return;
  }
  if (host === GOOGLE_ACS_HOST) {
    if (!(await handleGoogleAcs(identity, req, res, path))) sendJson(res, 404, { error: 'not found' });
    return;
  }
  // google.com's session, as every Google host sees it
  const signedIn = identity.session(cookieOf(req, GOOGLE_SESSION_COOKIE), 'mt');
  if (host === PRODUCT_HOST) {
    sendHtml(res, 200, meetProductPage());
    return;
  }
  if (path === '/' || path === '/landing') {
    sendHtml(res, 200, meetLandingPage());
    return;
  }
  if (path.startsWith('/api/meetings/')) {
    await handlePage(registry, 'mt', req, res, path, query, signedIn);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: 'method not allowed' });
    return;
  }
  const code = /^\/([a-z]{3}-[a-z]{4}-[a-z]{3})\/?$/.exec(path)?.[1];
  const meeting = code && meetingIdPattern('mt').test(code) ? registry.find(code, 'mt', 'meet') : null;
  if (!meeting) {
    sendHtml(res, 404, meetNotFoundPage());
    return;
  }
  const settings = meeting.replica!.settings as unknown as MeetSettings;
  // A meeting of the organisation only sends a guest to sign in, as the sign-in wall does.
  if (settings.wall === 'sign_in' || (meeting.organisation_only !== null && signedIn === null)) {
    res.writeHead(302, { location: `https://${SIGN_IN_HOST}/v3/signin/identifier?continue=${encodeURIComponent(`https://${MEET_HOST}/${code}`)}`, 'cache-control': 'no-store' }).end();
    return;
  }
  if (settings.wall === 'unrecognised') {
    sendHtml(res, 200, meetUnrecognisedPage());
    return;
  }
  sendHtml(res, 200, meetMeetingPage(meeting, settings, signedIn && { display_name: signedIn.display_name }));
};

export const meetReplica: ReplicaFlavour = {
  name: 'meet',
  platform: 'mt',
  hosts: [MEET_HOST, SIGN_IN_HOST, GOOGLE_ACS_HOST, PRODUCT_HOST],
  meetingUrl: (meetingId) => `https://${MEET_HOST}/${meetingId}`,
  options: (body) => {
    const settings = parseMeetSettings(body);
    return {
      replica: { flavour: 'meet', settings: { ...settings } },
      lobby_timeout_ms: settings.lobby_timeout_seconds * 1000,
      ...(settings.wall === 'cannot_join' || settings.wall === 'landing_redirect' || settings.wall === 'product_redirect' ? { join_wall: 'cannot_join' } : {}),
    };
  },
  handle,
};
