/**
 * The driver families the bot knows, and which one drives a meeting URL (by its host). A platform
 * without a family here cannot be joined: the run says so at once instead of waiting for a page it
 * cannot read.
 */
import { googleMeetFamily } from './google-meet/family';
import { microsoftTeamsFamily } from './microsoft-teams/family';
import type { DriverFamily } from './page-driver';
import { sandboxFamily } from './sandbox/family';
import { zoomFamily } from './zoom/family';

export const driverFamilies: readonly DriverFamily[] = [sandboxFamily, googleMeetFamily, microsoftTeamsFamily, zoomFamily];

const hostOf = (meetingUrl: string): string => new URL(meetingUrl).hostname.toLowerCase().replace(/\.$/, '');

export const familyForUrl = (meetingUrl: string, families: readonly DriverFamily[] = driverFamilies): DriverFamily | null => {
  const host = hostOf(meetingUrl);
  return families.find((f) => f.drives(host)) ?? null;
};

/** Every real host a replica answers for: what SANDBOX_REPLICAS sends to the sandbox. */
export const replicaHosts = (families: readonly DriverFamily[] = driverFamilies): string[] => [...new Set(families.flatMap((f) => f.replicaHosts))];
