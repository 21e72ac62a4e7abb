/**
 * Google Meet: meetings on meet.google.com (2.1). The UI language is pinned with `hl=en` unless the
 * URL sets one, because a signed-in account's language beats the browser's (Vexa). A replica serves
 * meet.google.com, the sign-in host the sign-in wall sends guests to, and the product site a block
 * or an ending may send them to.
 */
import type { DriverFamily } from '../page-driver';
import { MeetDriver } from './meet-driver';
import { productHost, signInHost } from './meet-texts';

export const googleMeetFamily: DriverFamily = {
  name: 'google-meet',
  drives: (host) => host === 'meet.google.com',
  // www.google.com: the assertion consumer service a signed-in (SAML) sign-in posts to
  replicaHosts: ['meet.google.com', signInHost, 'www.google.com', productHost],
  navigationUrl: (meetingUrl) => {
    const url = new URL(meetingUrl);
    if (!url.searchParams.has('hl')) url.searchParams.set('hl', 'en');
    return url.toString();
  },
  open: (page, log) => new MeetDriver(page, log),
};
