/**
 * Microsoft Teams: meetings on teams.microsoft.com, teams.live.com and teams.cloud.microsoft (3.1).
 * Business meetup-join and light-meetings links open straight in the web client as an anonymous
 * guest (teams-links.ts); short links keep their passcode. A replica serves the three hosts, the
 * Microsoft sign-in host the sign-in wall sends guests to, and the product site a block or an ending
 * may send them to.
 */
import type { DriverFamily } from '../page-driver';
import { TeamsDriver } from './teams-driver';
import { teamsHosts, teamsNavigationUrl } from './teams-links';
import { productHost, signInHosts } from './teams-texts';

const hosts: ReadonlySet<string> = new Set(teamsHosts);

export const microsoftTeamsFamily: DriverFamily = {
  name: 'microsoft-teams',
  drives: (host) => hosts.has(host),
  // the replica's sign-in host is Microsoft's main one; the others are only recognised
  replicaHosts: [...teamsHosts, signInHosts[0]!, productHost],
  navigationUrl: teamsNavigationUrl,
  open: (page, log) => new TeamsDriver(page, log),
};
