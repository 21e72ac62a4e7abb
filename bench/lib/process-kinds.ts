/**
 * What each process of a bot is, from its command line: the bot's own Node process, one of Chromium's
 * (browser, renderer, gpu, utility: network, audio, storage…, zygote), or one of the helpers its browser
 * starts (Xvfb, its display; pulseaudio, its sound server; parec, the listener on its speakers), so that a
 * profile says where the CPU and the memory go.
 */
import { readFile } from 'node:fs/promises';

/** The helpers a bot's browser starts beside it (bot-runtime/browser/display.ts, audio-server.ts). */
const HELPERS = ['Xvfb', 'pulseaudio', 'parec'];

export const processKind = async (pid: number): Promise<string> => {
  let cmd: string[];
  try {
    cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split(/[\0 ]/).filter(Boolean); // Chromium rewrites its title with spaces
  } catch {
    return 'gone';
  }
  const type = cmd.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  if (!type) {
    // by the executable only: a helper's arguments name files in the browser's profile folder (bot-chromium-…)
    const name = (cmd[0] ?? '').split('/').pop() || 'unknown';
    if (/chrom/.test(name)) return 'chromium browser';
    if (name === 'node') return 'bot node';
    return name;
  }
  if (type === 'utility') {
    const sub = cmd.find((a) => a.startsWith('--utility-sub-type='))?.slice('--utility-sub-type='.length) ?? '';
    return `utility ${sub.replace(/^.*\./, '')}`;
  }
  return type;
};

/** A process of Chromium's own (not the bot's Node, not a helper of this bench's runner such as tsx's esbuild). */
export const isChromiumKind = (kind: string): boolean =>
  kind === 'chromium browser' || ['renderer', 'gpu-process', 'zygote', 'broker'].includes(kind) || kind.startsWith('utility');

/** A process of a bot's browser: Chromium's own, or a helper it started (its display, its sound server). */
export const isBrowserKind = (kind: string): boolean => isChromiumKind(kind) || HELPERS.includes(kind);
