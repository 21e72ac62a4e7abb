/**
 * What each process of a bot is, from its command line: the bot's own Node process, or one of Chromium's
 * (browser, renderer, gpu, utility: network, audio, storage…, zygote), so that a profile says where the CPU goes.
 */
import { readFile } from 'node:fs/promises';

export const processKind = async (pid: number): Promise<string> => {
  let cmd: string[];
  try {
    cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split(/[\0 ]/).filter(Boolean); // Chromium rewrites its title with spaces
  } catch {
    return 'gone';
  }
  const type = cmd.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  if (!type) {
    const exe = cmd[0] ?? '';
    if (/chrom/.test(exe) || cmd.some((a) => /chromium/.test(a))) return 'chromium browser';
    if (/node$/.test(exe)) return 'bot node';
    return exe.split('/').pop() ?? 'unknown';
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
