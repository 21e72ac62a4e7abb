/** Waiting for a hosted provider's job: ask every interval until it is done, failed, or too long. */
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { sleep } from './provider-http';
import { TranscriptionFailed, type ProviderName } from './port';

export interface PollPolicy {
  /** between two looks at the job (the providers' SDKs use 3 s) */
  readonly intervalMs: number;
  /** from the job's creation; a provider works faster than real time, so hours of audio fit */
  readonly timeoutMs: number;
}

export const defaultPollPolicy: PollPolicy = { intervalMs: 3000, timeoutMs: 2 * 60 * 60 * 1000 };

export type JobState<T> = { readonly done: T } | { readonly pending: string };
export const jobDone = <T>(done: T): JobState<T> => ({ done });
export const jobPending = (status: string): JobState<never> => ({ pending: status });

export const pollJob = async <T>(
  provider: ProviderName,
  jobId: string,
  look: () => Promise<JobState<T>>,
  policy: PollPolicy,
  signal?: AbortSignal,
): Promise<T> => {
  const deadline = Date.now() + policy.timeoutMs;
  for (;;) {
    const state = await look();
    if ('done' in state) return state.done;
    if (Date.now() + policy.intervalMs > deadline) {
      throw new TranscriptionFailed(provider, `job ${jobId} still ${state.pending} after ${Math.round(policy.timeoutMs / 1000)} s; gave up`);
    }
    try {
      await sleep(policy.intervalMs, signal);
    } catch {
      throw new TranscriptionFailed(provider, `stopped while job ${jobId} was ${state.pending}`);
    }
  }
};

/** A provider's answer read with a codec of the fields we use; anything else is the provider's failure. */
export const decodeAnswer = <A>(provider: ProviderName, codec: t.Decoder<unknown, A>, body: unknown, what: string): A => {
  const decoded = codec.decode(body);
  if (E.isLeft(decoded)) {
    throw new TranscriptionFailed(provider, `${what} is not what the provider documents: ${PathReporter.report(decoded).slice(0, 3).join('; ')}`);
  }
  return decoded.right;
};
