/**
 * A bot started by the service: its job (JSON of BotJob) is the first line of its standard input, and
 * SERVICE_URL and BOT_TOKEN are in its environment. Not the environment for the job: a long list of
 * ignored names would pass the kernel's limit on one variable and the bot would never start. Pure.
 */
import type { BotJob } from '../contract/bot-contract';

export type ServiceJob =
  | { readonly ok: true; readonly job: BotJob; readonly serviceUrl: string; readonly token: string }
  | { readonly ok: false; readonly error: string };

export const jobFromService = (rawJob: string, env: NodeJS.ProcessEnv): ServiceJob => {
  const serviceUrl = env.SERVICE_URL;
  const token = env.BOT_TOKEN;
  if (!rawJob.trim() || !serviceUrl || !token) return { ok: false, error: 'a job on standard input, SERVICE_URL and BOT_TOKEN are all required' };
  let job: BotJob;
  try {
    job = JSON.parse(rawJob) as BotJob;
  } catch (err) {
    return { ok: false, error: `the job is not JSON: ${(err as Error).message}` };
  }
  const missing = (['bot_id', 'meeting_url', 'platform', 'bot_name', 'recording_mode', 'timeout_config', 'upload'] as const).filter(
    (k) => job[k] === undefined || job[k] === null,
  );
  if (missing.length) return { ok: false, error: `the job lacks ${missing.join(', ')}` };
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
