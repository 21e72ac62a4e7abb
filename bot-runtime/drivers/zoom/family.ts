/**
 * Zoom's web client: meetings on zoom.us and its subdomains (4.1). `/j/<id>` and `/s/<id>` links go
 * to the web client's join page, `https://app.zoom.us/wc/<id>/join`, with their `pwd` kept (Vexa, MB);
 * web-client URLs, webinar links (`/w/`, a registrant token `tk`: rewriting drops it, MB) and
 * events.zoom.us are opened as they are. A replica serves the hosts below.
 *
 * The web client asks nobody for a recording permission (the sandbox's vc flavour stands for Zoom's
 * SDK bots, whose hosts grant it): the bot records its own tab as a participant, so the family
 * lifts vc's permission rule; vc's other rules stay (only `waiting_room_timeout` applies).
 */
import type { DriverFamily } from '../page-driver';
import { ZoomDriver } from './zoom-driver';
import { productHost } from './zoom-texts';

/** the web client's host, where `/j/` links are sent */
export const WEB_CLIENT_HOST = 'app.zoom.us';

/** zoom.us, the web client, the regional subdomains personal links use (us05web…), and Zoom's product site (where a block or an ending may send the page) */
export const zoomReplicaHosts = ['zoom.us', WEB_CLIENT_HOST, 'us05web.zoom.us', 'us06web.zoom.us', productHost];

const isZoomHost = (host: string) => host === 'zoom.us' || host.endsWith('.zoom.us');

/** The URL to open for a Zoom meeting URL (4.1). */
export const zoomNavigationUrl = (meetingUrl: string): string => {
  const url = new URL(meetingUrl);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!isZoomHost(host) || host === 'events.zoom.us' || url.searchParams.has('tk')) return meetingUrl;
  const id = /^\/[js]\/(\d{9,11})\/?$/.exec(url.pathname)?.[1];
  if (!id) return meetingUrl;
  const target = new URL(`https://${WEB_CLIENT_HOST}/wc/${id}/join`);
  const pwd = url.searchParams.get('pwd');
  if (pwd) target.searchParams.set('pwd', pwd);
  return target.toString();
};

export const zoomFamily: DriverFamily = {
  name: 'zoom',
  drives: isZoomHost,
  replicaHosts: zoomReplicaHosts,
  navigationUrl: zoomNavigationUrl,
  platformRules: { needsRecordingPermission: false },
  open: (page, log) => new ZoomDriver(page, log),
};
