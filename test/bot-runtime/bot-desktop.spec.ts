/**
 * What each bot's Chromium has around it (issue 22): its own virtual display (Xvfb) that only it can
 * reach, its own sound server (PulseAudio) with a laptop's speakers and microphone, and a profile that
 * lets the platforms' pages open the meeting apps' links without a dialog. The helpers run as the bot
 * user, like Chromium.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { APP_SCHEMES, appLinkPreferences } from '../../bot-runtime/browser/app-links';
import { MICROPHONE_LABEL, peakOf, pulseAudioArgs, SPEAKERS_LABEL, startAudioServer } from '../../bot-runtime/browser/audio-server';
import { startVirtualDisplay, xauthorityEntry, xvfbArgs } from '../../bot-runtime/browser/display';
import { botUserName, lookUpUser, type BotUser } from '../../contract/host/bot-user';

const run = promisify(execFile);

/** The bot user when this process is root (as in CI): the helpers then run as that user. */
const runAs = (): BotUser | null => (process.getuid?.() === 0 ? lookUpUser(botUserName(process.env)) : null);

/** A private folder the bot user owns, as the bot's Chromium profile folder is. */
const privateDir = async (): Promise<string> => {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bot-desktop-'));
  const user = runAs();
  if (user) await fs.promises.chown(dir, user.uid, user.gid);
  return dir;
};

describe("the bot's desktop: display, sound server, app links", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('writes an Xauthority entry libXau reads: any address, any display, one MIT cookie', () => {
    const cookie = Buffer.alloc(16, 7);
    const entry = xauthorityEntry(cookie);
    const name = Buffer.from('MIT-MAGIC-COOKIE-1');
    assert.deepEqual(entry, Buffer.concat([Buffer.from([0xff, 0xff, 0, 0, 0, 0, 0, name.length]), name, Buffer.from([0, 16]), cookie]));
    const args = xvfbArgs({ width: 1920, height: 1080 }, '/p/.Xauthority');
    assert.ok(args.join(' ').includes('-screen 0 1920x1080x24') && args.join(' ').includes('-auth /p/.Xauthority') && args.join(' ').includes('-nolisten tcp'), args.join(' '));
  });

  it('a display of its own: a client without its cookie is refused, one with it draws; two bots get two displays', async () => {
    const [a, b] = await Promise.all([privateDir(), privateDir()]);
    dirs.push(a, b);
    const screen = { width: 320, height: 240 };
    const [one, two] = await Promise.all([startVirtualDisplay({ screen, dir: a, runAs: runAs() }), startVirtualDisplay({ screen, dir: b, runAs: runAs() })]);
    try {
      assert.notEqual(one.display, two.display);
      const grab = (env: Record<string, string>) =>
        run('ffmpeg', ['-loglevel', 'error', '-f', 'x11grab', '-video_size', '320x240', '-i', one.display, '-frames:v', '1', '-f', 'null', '-'], { env: { PATH: process.env.PATH ?? '', ...env } });
      await assert.rejects(grab({}), 'no cookie: refused');
      await assert.rejects(grab({ XAUTHORITY: two.environment.XAUTHORITY }), "another bot's cookie: refused");
      await grab({ XAUTHORITY: one.environment.XAUTHORITY });
      const mode = (await fs.promises.stat(one.environment.XAUTHORITY)).mode & 0o777;
      assert.equal(mode, 0o600, 'the cookie is private');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a killed bot leaves no display or sound server behind', async () => {
    const dir = await privateDir();
    dirs.push(dir);
    const code = `const { startVirtualDisplay } = require(${JSON.stringify(path.resolve(__dirname, '../../bot-runtime/browser/display.ts'))});
      const { startAudioServer } = require(${JSON.stringify(path.resolve(__dirname, '../../bot-runtime/browser/audio-server.ts'))});
      const { lookUpUser, botUserName } = require(${JSON.stringify(path.resolve(__dirname, '../../contract/host/bot-user.ts'))});
      const runAs = process.getuid() === 0 ? lookUpUser(botUserName(process.env)) : null;
      Promise.all([startVirtualDisplay({ screen: { width: 64, height: 64 }, dir: ${JSON.stringify(dir)}, runAs }), startAudioServer({ dir: ${JSON.stringify(dir)}, runAs })])
        .then(() => console.log('ready'));`;
    const bot = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      bot.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      bot.once('exit', (c) => reject(new Error(`the stand-in bot exited (${c})`)));
    });
    const helpers = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === bot.pid;
        } catch {
          return false;
        }
      });
    assert.equal(helpers.length, 2, 'Xvfb and PulseAudio run as its children');
    bot.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (helpers.some((p) => fs.existsSync(`/proc/${p}`)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(helpers.filter((p) => fs.existsSync(`/proc/${p}`)), [], 'both ended with it');
  });

  it('a sound server of its own, on a socket in its private folder, with speakers and a microphone named like a laptop’s', async () => {
    assert.ok(!pulseAudioArgs('/s').some((a) => /tcp|dbus|zeroconf/i.test(a)), 'no network, no session bus');
    const dir = await privateDir();
    dirs.push(dir);
    const sound = await startAudioServer({ dir, runAs: runAs() });
    try {
      const socket = sound.environment.PULSE_SERVER.replace(/^unix:/, '');
      assert.ok(socket.startsWith(dir));
      assert.equal((await fs.promises.stat(path.dirname(socket))).mode & 0o777, 0o700);
      const user = runAs();
      const pactl = (what: string) =>
        run(user ? '/usr/bin/setpriv' : 'pactl', [...(user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', 'pactl'] : []), 'list', what], {
          env: { PATH: process.env.PATH ?? '', HOME: dir, ...sound.environment },
        });
      assert.match((await pactl('sinks')).stdout, new RegExp(`Description: ${SPEAKERS_LABEL}`));
      assert.match((await pactl('sources')).stdout, new RegExp(`Name: microphone[\\s\\S]*Description: ${MICROPHONE_LABEL}`));
      assert.equal(sound.speakers().msSinceSound(), null, 'the speakers have played nothing');
    } finally {
      await sound.close();
    }
  });

  it('hears sound above the gate only', () => {
    const pcm = Buffer.alloc(8);
    pcm.writeInt16LE(100, 0);
    assert.ok(peakOf(pcm) < 0.005);
    pcm.writeInt16LE(-8000, 2);
    assert.ok(Math.abs(peakOf(pcm) - 8000 / 32768) < 1e-9);
  });

  it("lets every platform host's pages open the meeting apps' links without a dialog", () => {
    const prefs = appLinkPreferences(['teams.microsoft.com', 'zoom.us']) as { protocol_handler: { allowed_origin_protocol_pairs: Record<string, Record<string, boolean>> } };
    assert.deepEqual(Object.keys(prefs.protocol_handler.allowed_origin_protocol_pairs), ['https://teams.microsoft.com', 'https://zoom.us']);
    assert.deepEqual(Object.keys(prefs.protocol_handler.allowed_origin_protocol_pairs['https://teams.microsoft.com']!), [...APP_SCHEMES]);
  });
});
