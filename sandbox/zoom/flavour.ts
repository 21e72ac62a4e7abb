/**
 * The Zoom web client replica (research note 4.7): links `https://zoom.us/j/<id>?pwd=<token>` (and
 * `/s/`, `/w/` on zoom.us and its regional subdomains) open the launch page; the web client serves
 * `/wc/<id>/join` (React) and `/wc/join/<id>` (classic) on every host; the page API of the sandbox
 * under /api; a post-meeting `/signin` page. Meetings are vc meetings created through the control
 * API with `{platform: "vc", replica: "zoom", …settings.ts}`.
 */
import { createHash } from 'node:crypto';
import { handlePage } from '../page-routes';
import { sendHtml, sendJson } from '../http-util';
import { meetingIdPattern, startHostWhenDue, type Meeting } from '../meeting-state';
import type { ReplicaFlavour, ReplicaRequest } from '../replicas';
import { zoomErrorPage, zoomLaunchPage, zoomPlainPage, zoomWebClientPage, type WebClient } from './pages';
import { parseZoomSettings, type ZoomSettings } from './settings';
import { zoomTexts } from './texts';

import { PRODUCT_HOST, ZOOM_HOSTS, zoomRedirects } from './hosts';

const digest = (meetingId: string) => createHash('sha256').update(`zoom-replica:${meetingId}`).digest();

/** The `pwd` a meeting's links carry: an opaque token, as Zoom's are. */
export const zoomPwd = (meetingId: string): string => `${digest(meetingId).toString('base64url').slice(0, 32)}.1`;
/** The passcode a person would type (six digits). */
export const zoomPasscode = (meetingId: string): string => String(digest(meetingId).readUInt32BE(0) % 1_000_000).padStart(6, '0');

const meetingOf = (request: ReplicaRequest, id: string): Meeting | null => (meetingIdPattern('vc').test(id) ? request.registry.find(id, 'vc', 'zoom') : null);

const handle = async (request: ReplicaRequest): Promise<void> => {
  const { registry, req, res, path, query } = request;
  if (path.startsWith('/api/meetings/')) {
    await handlePage(registry, 'vc', req, res, path, query);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: 'method not allowed' });
    return;
  }
  if (request.host === PRODUCT_HOST) {
    sendHtml(res, 200, zoomPlainPage('Zoom | One platform to connect', 'Zoom Workplace', 'One platform to connect.'));
    return;
  }
  if (path === '/signin') {
    sendHtml(res, 200, zoomPlainPage('Sign In - Zoom', zoomTexts.signIn));
    return;
  }
  if (path === '/') {
    sendHtml(res, 200, zoomPlainPage('Zoom', 'Zoom Workplace', 'Meetings, chat, phone and more.'));
    return;
  }
  const link = /^\/[jsw]\/(\d{9,11})\/?$/.exec(path)?.[1];
  if (link) {
    // the launch page does not know whether the meeting exists: the web client says so
    sendHtml(res, 200, zoomLaunchPage(link, query));
    return;
  }
  const react = /^\/wc\/(\d{9,11})\/join\/?$/.exec(path)?.[1];
  const classic = /^\/wc\/join\/(\d{9,11})\/?$/.exec(path)?.[1];
  const id = react ?? classic;
  if (!id) {
    sendJson(res, 404, { error: 'not a page of the Zoom replica' });
    return;
  }
  const meeting = meetingOf(request, id);
  // Zoom's error page: the peers read it as "the host has not started" (4.2), an unknown meeting shows it too
  if (!meeting) {
    sendHtml(res, 200, zoomErrorPage());
    return;
  }
  startHostWhenDue(meeting, registry.now());
  const settings = meeting.replica!.settings as unknown as ZoomSettings;
  if (settings.wall === 'auth') {
    sendHtml(res, 200, zoomPlainPage('Zoom', zoomTexts.authTitle, zoomTexts.authLine));
    return;
  }
  if (settings.wall === 'sign_in_redirect') {
    res.writeHead(302, { location: zoomRedirects.sign_in, 'cache-control': 'no-store' }).end();
    return;
  }
  if (settings.wall === 'unrecognised') {
    sendHtml(res, 200, zoomPlainPage('Zoom', 'This replica page shows no state of the Zoom contract (wall "unrecognised").'));
    return;
  }
  if (!meeting.host_present && settings.host_absent_page === 'invalid_link') {
    sendHtml(res, 200, zoomErrorPage());
    return;
  }
  const client: WebClient = react ? 'react' : 'classic';
  const pwd = query.get('pwd');
  const carried = pwd === zoomPwd(meeting.meeting_id);
  const passcode = !settings.passcode ? 'none' : carried ? (settings.passcode_prompt === 'always' ? 'asked_anyway' : 'given') : pwd ? 'wrong' : 'missing';
  // asked although the link carries it: the field takes the person's passcode or the link's token (MB zoom.ts fills it from pwd)
  const accepted = [zoomPasscode(meeting.meeting_id), ...(passcode === 'asked_anyway' ? [zoomPwd(meeting.meeting_id)] : [])];
  sendHtml(res, 200, zoomWebClientPage(meeting, settings, client, passcode, accepted));
};

export const zoomReplica: ReplicaFlavour = {
  name: 'zoom',
  platform: 'vc',
  hosts: [...ZOOM_HOSTS, PRODUCT_HOST],
  meetingUrl: (meetingId) => `https://zoom.us/j/${meetingId}?pwd=${zoomPwd(meetingId)}`,
  options: (body) => {
    const settings = parseZoomSettings(body);
    return {
      replica: { flavour: 'zoom', settings: { ...settings } },
      ...(settings.wall === 'bot' || settings.wall === 'captcha' || settings.wall === 'product_redirect' ? { join_wall: settings.wall } : {}),
      ...(settings.host_starts_after_seconds !== null ? { host_starts_after_ms: settings.host_starts_after_seconds * 1000 } : {}),
    };
  },
  handle,
  // the SDK takes the link's `pwd` or the passcode a person types
  sdkPasscodeOk: (meeting, passWord) =>
    !(meeting.replica!.settings as unknown as ZoomSettings).passcode || passWord === zoomPwd(meeting.meeting_id) || passWord === zoomPasscode(meeting.meeting_id),
};
