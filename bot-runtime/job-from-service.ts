/**
 * A bot started by the service: the first line of its standard input is a BotLaunch (the job, the service's
 * address and the bot's token). Not the environment: Chromium and the user's other processes could read
 * the token there, and a long job would pass the kernel's limit on one variable. Pure.
 */
import type { BotJob, BotLaunch } from '../contract/bot-contract';

export type ServiceJob =
  | { readonly ok: true; readonly job: BotJob; readonly serviceUrl: string; readonly token: string; readonly testCaPem: string | null }
  | { readonly ok: false; readonly error: string };

export const jobFromService = (rawLaunch: string): ServiceJob => {
  let launch: Partial<BotLaunch>;
  try {
    launch = JSON.parse(rawLaunch) as Partial<BotLaunch>;
  } catch (err) {
    return { ok: false, error: `the launch is not JSON: ${(err as Error).message}` };
  }
  const { job, service_url: serviceUrl, token } = launch ?? {};
  if (!job || typeof job !== 'object' || !serviceUrl || !token) return { ok: false, error: 'the launch needs a job, service_url and token' };
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
    testCaPem: typeof launch.test_ca_pem === 'string' ? launch.test_ca_pem : null,
  };
};
