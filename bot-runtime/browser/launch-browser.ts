/**
 * Launches Debian's Chromium the way tab capture works here (ENVIRONMENT.md): no `--mute-audio`, no
 * `--use-fake-ui-for-media-stream`, `--auto-accept-this-tab-capture`, autoplay without a gesture, and no
 * background traffic to outside hosts. It looks like a person's Chromium on Linux (fingerprint/): headful
 * on a virtual display of its own (display.ts) by default, or in the new headless mode.
 *
 * Always with its sandbox (never `--no-sandbox`), never as root, with an environment of its own
 * (contract/host/environment.ts) and a private profile folder removed when it closes. A bot started by the service
 * already runs as the bot user; a bot process running as root (tests, `npm run bot` as root) starts
 * Chromium as the bot user through `setpriv`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { botUserName, lookUpUser, type BotUser } from '../../contract/host/bot-user';
import { chromiumEnvironment } from '../../contract/host/environment';
import { replicaHosts } from '../drivers/families';
import { appLinkPreferences, noAppEnvironment, writeProfilePreferences } from './app-links';
import { startAudioServer, type AudioServer } from './audio-server';
import { startVirtualDisplay, type VirtualDisplay } from './display';
import { keepSoundServer } from './speakers';
import { AUTOMATION_DEFAULTS, DEFAULT_BROWSER_MODE, gpuEnvironment, personLikeArgs, SCREEN, userAgentArgs, VIEWPORT, type BrowserMode } from './fingerprint/browser-mode';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SETPRIV = '/usr/bin/setpriv';

export const chromiumArgs = (extra: readonly string[] = []): string[] => [
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
  ...extra,
];

/** Switches that would run Chromium without its sandbox: refused, whoever asks. */
const UNSANDBOXED = ['--no-sandbox', '--no-zygote', '--single-process', '--disable-setuid-sandbox', '--disable-namespace-sandbox', '--disable-seccomp-filter-sandbox'];

export interface LaunchOptions {
  /** extra Chromium arguments (e.g. the sandbox certificate pin) */
  readonly args?: readonly string[];
  readonly executablePath?: string;
  /** headful on a virtual display (the default) or headless */
  readonly mode?: BrowserMode;
}

const versions = new Map<string, string>();
/** `Chromium 156.0.8078.108 …`, asked once per executable; empty when it does not say. */
const chromiumVersion = (executable: string): string => {
  if (!versions.has(executable)) {
    let version = '';
    try {
      version = execFileSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    } catch {
      // no version: headless keeps its own user agent
    }
    versions.set(executable, version);
  }
  return versions.get(executable)!;
};

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
  mode: BrowserMode = DEFAULT_BROWSER_MODE,
): { readonly executablePath: string; readonly args: string[] } => {
  const asked = [...extra].filter((a) => UNSANDBOXED.includes(a.split('=')[0]!));
  if (asked.length) throw new Error(`Chromium always runs with its sandbox: ${asked.join(' ')} refused`);
  const defaults = puppeteer.defaultArgs({ headless: false, userDataDir: profile }).filter((a) => !AUTOMATION_DEFAULTS.includes(a) && a !== 'about:blank');
  const args = [...defaults, ...chromiumArgs([...personLikeArgs(mode), ...extra]), 'about:blank'];
  if (args.some((a) => UNSANDBOXED.includes(a))) throw new Error('Chromium always runs with its sandbox (PUPPETEER_DANGEROUS_NO_SANDBOX is refused)');
  if (!runAs) return { executablePath: executable, args };
  return { executablePath: SETPRIV, args: [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--', executable, ...args] };
};

export const launchBrowser = async (opts: LaunchOptions = {}): Promise<Browser> => {
  const mode = opts.mode ?? DEFAULT_BROWSER_MODE;
  const executable = opts.executablePath ?? CHROMIUM_PATH;
  const runAs = chromiumUser();
  const profile = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bot-chromium-'));
  if (runAs) await fs.promises.chown(profile, runAs.uid, runAs.gid);
  let display: VirtualDisplay | null = null;
  let sound: AudioServer | null = null;
  const cleanUp = async () => {
    await Promise.all([display?.close(), sound?.close()]);
    await fs.promises.rm(profile, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  };
  try {
    // the platforms' hosts may open the meeting apps' links (app-links.ts)
    await writeProfilePreferences(profile, appLinkPreferences(replicaHosts()), runAs);
    [display, sound] = await Promise.all([
      mode === 'headful' ? startVirtualDisplay({ screen: SCREEN, dir: profile, runAs }) : null,
      startAudioServer({ dir: profile, runAs }),
    ]);
    const browser = await puppeteer.launch({
      ...browserCommand(executable, [...userAgentArgs(mode, chromiumVersion(executable)), ...(opts.args ?? [])], profile, runAs, mode),
      ignoreDefaultArgs: true,
      env: { ...chromiumEnvironment(profile, process.env), ...gpuEnvironment(), ...display?.environment, ...sound?.environment, ...noAppEnvironment() },
      headless: mode === 'headless',
      // headful: the page gets the window's own size (an emulated one would disagree with the window and the screen)
      defaultViewport: mode === 'headful' ? null : VIEWPORT,
      protocolTimeout: 60_000,
      // Over a pipe, Chromium exits when the bot process dies, however it dies: a killed bot leaves no browser behind.
      pipe: true,
      // the bot handles signals itself (leave, store the recording, then close the browser)
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    if (sound) keepSoundServer(browser, sound);
    browser.once('disconnected', () => void cleanUp());
    return browser;
  } catch (err) {
    await cleanUp();
    throw err;
  }
};
