/**
 * The bot runtime compiled once per service process into one JavaScript file, which every bot process then
 * runs with plain `node`: no TypeScript loader compiling the runtime again at each start (0.7 s of CPU and
 * 45 MB per bot under tsx, plus its esbuild helper process), and no compiler cache a bot could write to.
 *
 * The file lives in a folder of the service's user (mode 0755, the file 0644): bots read it and cannot
 * change it, so one bot cannot plant code for the next. It is removed when the service process exits.
 * Identifiers are kept (stack traces in a bot's log still name its functions); a source map lies beside it.
 */
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPOSITORY = path.resolve(__dirname, '../../..');
export const BOT_RUNTIME_SOURCE = path.join(REPOSITORY, 'bot-runtime/main.ts');

let compiled: Promise<string> | null = null;

const removeAtExit = (folder: string) =>
  process.once('exit', () => {
    try {
      fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // best effort: a folder in the temporary directory
    }
  });

const compile = async (): Promise<string> => {
  // loaded only when bots run here: an API-only service never needs the compiler
  const esbuild = await import('esbuild');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'meetbot-runtime-'));
  removeAtExit(folder);
  const outfile = path.join(folder, 'main.js');
  await esbuild.build({
    entryPoints: [BOT_RUNTIME_SOURCE],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    logLevel: 'silent',
  });
  fs.chmodSync(folder, 0o755);
  for (const file of fs.readdirSync(folder)) fs.chmodSync(path.join(folder, file), 0o644);
  return outfile;
};

/** The compiled runtime's main file; compiled at the first call, the same file afterwards. */
export const compiledBotRuntime = (): Promise<string> => {
  compiled ??= compile().catch((err: unknown) => {
    compiled = null; // the next launch tries again
    throw new Error(`the bot runtime could not be compiled: ${(err as Error).message}`);
  });
  return compiled;
};
