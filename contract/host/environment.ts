/**
 * The whole environment of a bot's processes, by allow-list: nothing the service or the bot holds
 * (service variables, the bot's token, keys) reaches Chromium, and nothing of the service's reaches the bot.
 */

/** Where the programs are (Chromium's Debian wrapper needs a few shell tools; the bot needs ffmpeg). */
const pathOf = (env: NodeJS.ProcessEnv): string => env.PATH || '/usr/local/bin:/usr/bin:/bin';

/** Chromium's: its private folder as home and temporary folder, the programs' path and the language. */
export const chromiumEnvironment = (privateDir: string, env: NodeJS.ProcessEnv): Record<string, string> => ({
  PATH: pathOf(env),
  HOME: privateDir,
  TMPDIR: privateDir,
  LANG: env.LANG || 'C.UTF-8',
});

/** The service's settings a bot process reads (each documented in README.md); nothing else is passed. */
export const BOT_SETTINGS = ['NODE_ENV', 'CHROMIUM_PATH', 'SANDBOX_REPLICAS'] as const;

/** The bot process's, as the launcher makes it: `settings` are the service's values of BOT_SETTINGS. */
export const botProcessEnvironment = (
  privateDir: string,
  env: NodeJS.ProcessEnv,
  settings: Partial<Record<(typeof BOT_SETTINGS)[number], string>>,
): Record<string, string> => {
  const passed = Object.entries(settings).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
  return { ...chromiumEnvironment(privateDir, env), ...Object.fromEntries(passed) };
};
