/**
 * The meeting apps' own links (`msteams:`, `zoommtg:`, …), which the platforms' launch pages try before
 * they offer the browser (Teams' hidden `iframe#teamsLauncher`, research note 3.1). A person's Chromium
 * asks "Open xdg-open?" in a dialog that takes the keyboard until it is answered, and keys typed into
 * the page meanwhile are lost (measured on the Teams replica's launcher). The bot's profile lets the
 * platforms' pages open those links without asking (Chromium's own per-origin preference, as a person's
 * "Always allow" would store it), and its desktop has no application for them (`BROWSER=true`: xdg-open
 * hands the link to `true`, which does nothing). Nothing of this is in the page: its scripts and
 * prototypes stay the browser's own (docs/decisions.md, "Issue 22: the browser a page sees").
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotUser } from '../../contract/host/bot-user';

export const APP_SCHEMES = ['msteams', 'ms-teams', 'zoommtg', 'zoomus'] as const;

/** The profile's preferences: every host's pages may open the meeting apps' links without a dialog. */
export const appLinkPreferences = (hosts: readonly string[]): Record<string, unknown> => ({
  protocol_handler: {
    allowed_origin_protocol_pairs: Object.fromEntries(hosts.map((h) => [`https://${h}`, Object.fromEntries(APP_SCHEMES.map((s) => [s, true]))])),
  },
});

/** What xdg-open runs for a link no application claims: nothing. */
export const noAppEnvironment = (): Record<string, string> => ({ BROWSER: 'true' });

/** Writes `Default/Preferences` into a new profile folder, owned by the user Chromium runs as. */
export const writeProfilePreferences = async (profile: string, preferences: Record<string, unknown>, runAs: BotUser | null): Promise<void> => {
  const dir = path.join(profile, 'Default');
  const file = path.join(dir, 'Preferences');
  await fs.promises.mkdir(dir, { mode: 0o700 });
  await fs.promises.writeFile(file, JSON.stringify(preferences), { mode: 0o600 });
  if (runAs) for (const p of [dir, file]) await fs.promises.chown(p, runAs.uid, runAs.gid);
};
