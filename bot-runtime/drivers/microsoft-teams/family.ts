/**
 * Microsoft Teams: meetings on teams.microsoft.com, teams.live.com and teams.cloud.microsoft (3.1).
 * Business meetup-join and light-meetings links open straight in the web client as an anonymous
 * guest (teams-links.ts); short links keep their passcode. A replica serves the three hosts and the
 * Microsoft sign-in host the sign-in wall sends guests to.
 */
import type { DriverFamily } from '../page-driver';
import { TeamsDriver } from './teams-driver';
import { teamsHosts, teamsNavigationUrl } from './teams-links';
import { signInHosts } from './teams-texts';

const hosts: ReadonlySet<string> = new Set(teamsHosts);

export const microsoftTeamsFamily: DriverFamily = {
  name: 'microsoft-teams',
  drives: (host) => hosts.has(host),
  replicaHosts: [...teamsHosts, ...signInHosts],
  navigationUrl: teamsNavigationUrl,
  open: (page, log) => new TeamsDriver(page, log),
};
