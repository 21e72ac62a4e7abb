/** A bot started by the service: BOT_JOB (JSON of BotJob), SERVICE_URL and BOT_TOKEN. Pure. */
import type { BotJob } from './contract';

export type EnvJob =
  | { readonly ok: true; readonly job: BotJob; readonly serviceUrl: string; readonly token: string }
  | { readonly ok: false; readonly error: string };

export const jobFromEnv = (env: NodeJS.ProcessEnv): EnvJob => {
  const raw = env.BOT_JOB;
  const serviceUrl = env.SERVICE_URL;
  const token = env.BOT_TOKEN;
  if (!raw || !serviceUrl || !token) return { ok: false, error: 'BOT_JOB, SERVICE_URL and BOT_TOKEN are all required' };
  let job: BotJob;
  try {
    job = JSON.parse(raw) as BotJob;
  } catch (err) {
    return { ok: false, error: `BOT_JOB is not JSON: ${(err as Error).message}` };
  }
  const missing = (['bot_id', 'meeting_url', 'platform', 'bot_name', 'recording_mode', 'timeout_config', 'upload'] as const).filter(
    (k) => job[k] === undefined || job[k] === null,
  );
  if (missing.length) return { ok: false, error: `BOT_JOB lacks ${missing.join(', ')}` };
  return {
    ok: true,
    job: {
      ...job,
      bot_image: job.bot_image ?? [],
      entry_message: job.entry_message ?? null,
      ignored_participant_names: job.ignored_participant_names ?? [],
      trust_sandbox_certificate: job.trust_sandbox_certificate ?? false,
    },
    serviceUrl,
    token,
  };
};
