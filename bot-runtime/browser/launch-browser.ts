/**
 * Launches Debian's Chromium the way tab capture works headless here (ENVIRONMENT.md): no
 * `--mute-audio`, no `--use-fake-ui-for-media-stream`, `--auto-accept-this-tab-capture`, autoplay
 * without a gesture, and no background traffic to outside hosts.
 *
 * Always with its sandbox (never `--no-sandbox`), never as root, with an environment of its own
 * (contract/host/environment.ts) and a private profile folder removed when it closes. A bot started by the service
 * already runs as the bot user; a bot process running as root (tests, `npm run bot` as root) starts
 * Chromium as the bot user through `setpriv`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { botUserName, lookUpUser, type BotUser } from '../../contract/host/bot-user';
import { chromiumEnvironment } from '../../contract/host/environment';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SETPRIV = '/usr/bin/setpriv';

export const chromiumArgs = (extra: readonly string[] = []): string[] => [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
  '--auto-accept-this-tab-capture',
  // a hidden or occluded tab must not be throttled: the page polls the meeting and records
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--window-size=1280,720',
  ...extra,
];

/** Switches that would run Chromium without its sandbox: refused, whoever asks. */
const UNSANDBOXED = ['--no-sandbox', '--no-zygote', '--single-process', '--disable-setuid-sandbox', '--disable-namespace-sandbox', '--disable-seccomp-filter-sandbox'];

export interface LaunchOptions {
  /** extra Chromium arguments (e.g. the sandbox certificate pin) */
  readonly args?: readonly string[];
  readonly executablePath?: string;
}

/** Who Chromium runs as: this process's user, or the bot user when this process is root. */
const chromiumUser = (): BotUser | null => {
  if (process.getuid?.() !== 0) return null;
  const name = botUserName(process.env);
  const user = lookUpUser(name);
  if (!user) throw new Error(`Chromium does not run as root, and the bot user "${name}" does not exist: run scripts/install-system-packages.sh as root`);
  return user;
};

/** The command line: puppeteer's defaults without `--mute-audio`, ours, never a sandbox switch. */
export const browserCommand = (
  executable: string,
  extra: readonly string[],
  profile: string,
  runAs: BotUser | null,
): { readonly executablePath: string; readonly args: string[] } => {
  const asked = [...extra].filter((a) => UNSANDBOXED.includes(a.split('=')[0]!));
  if (asked.length) throw new Error(`Chromium always runs with its sandbox: ${asked.join(' ')} refused`);
  const args = puppeteer.defaultArgs({ headless: true, args: chromiumArgs(extra), userDataDir: profile }).filter((a) => a !== '--mute-audio');
  if (args.some((a) => UNSANDBOXED.includes(a))) throw new Error('Chromium always runs with its sandbox (PUPPETEER_DANGEROUS_NO_SANDBOX is refused)');
  if (!runAs) return { executablePath: executable, args };
  return { executablePath: SETPRIV, args: [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--', executable, ...args] };
};

export const launchBrowser = async (opts: LaunchOptions = {}): Promise<Browser> => {
  const runAs = chromiumUser();
  const profile = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bot-chromium-'));
  if (runAs) await fs.promises.chown(profile, runAs.uid, runAs.gid);
  const removeProfile = () => fs.promises.rm(profile, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  try {
    const browser = await puppeteer.launch({
      ...browserCommand(opts.executablePath ?? CHROMIUM_PATH, opts.args ?? [], profile, runAs),
      ignoreDefaultArgs: true,
      env: chromiumEnvironment(profile, process.env),
      headless: true,
      defaultViewport: { width: 1280, height: 720 },
      protocolTimeout: 60_000,
      // Over a pipe, Chromium exits when the bot process dies, however it dies: a killed bot leaves no browser behind.
      pipe: true,
      // the bot handles signals itself (leave, store the recording, then close the browser)
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    browser.once('disconnected', () => void removeProfile());
    return browser;
  } catch (err) {
    await removeProfile();
    throw err;
  }
};
