/** What differs between the platforms for the bot (the sandbox's DOM hooks are the same on all three). */
import type { Platform } from '../../contract/bot-contract';

export interface PlatformRules {
  /** the host must grant a recording permission before the bot records (vc) */
  readonly needsRecordingPermission: boolean;
  /** the host can be absent: the meeting has not started (vc) */
  readonly canWaitForHost: boolean;
}

export const platformRules: Record<Platform, PlatformRules> = {
  vc: { needsRecordingPermission: true, canWaitForHost: true },
  tm: { needsRecordingPermission: false, canWaitForHost: false },
  mt: { needsRecordingPermission: false, canWaitForHost: false },
};
