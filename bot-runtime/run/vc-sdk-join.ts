/**
 * vc joins with credentials, the run's part: what the service answers for this join decides the page
 * (contract/bot-contract.ts VcJoinCredentials), and while the OBF token's user is absent the bot joins again
 * every `retry_seconds` (spec: 30 s) until the user is there or the waiting room timeout ends it.
 */
import type { BotLog } from '../bot-log';
import type { BotJob } from '../../contract/bot-contract';
import { vcSdkFamily } from '../drivers/vc-sdk/family';
import type { VcJoinAnswer } from '../drivers/vc-sdk/vc-sdk-driver';
import type { DriverFamily, PageDriver } from '../drivers/page-driver';
import type { EndCause } from '../end-codes';
import type { MeetingLocation } from '../meeting-url';
import { installedMeetingSdk, startSdkHostServer, type SdkHostServer } from '../vc-sdk/host-server';

/** Where the platform (in tests, the sandbox) serves its Meeting SDK stand-in (sandbox/CONTRACT.md). */
const MEETING_SDK_STAND_IN_PATH = '/meetingsdk/zoom-meeting.js';

export type VcSdkChoice =
  /** nothing to sign: the web client, as anyone */
  | { readonly kind: 'web' }
  | { readonly kind: 'sdk'; readonly family: DriverFamily; readonly host: SdkHostServer }
  | { readonly kind: 'end'; readonly cause: EndCause };

/**
 * The service's credentials for this join. Signed: the Meeting SDK on the bot's own page, from the npm
 * package, or from the platform itself in tests (the sandbox's stand-in, served where the meeting is:
 * `testPlatform`). A refusal of the service ends the run with its vc code before any browser starts.
 */
export const chooseVcJoin = async (job: BotJob, meeting: MeetingLocation, vcJoin: () => Promise<VcJoinAnswer>, testPlatform: boolean): Promise<VcSdkChoice> => {
  const answer = await vcJoin();
  if (!answer.ok) return { kind: 'end', cause: { kind: 'vc_refused', error_code: answer.refusal.error_code, message: answer.refusal.message } };
  const { credentials } = answer;
  if (credentials.sdk === null) return { kind: 'web' };
  const installed = testPlatform ? null : installedMeetingSdk();
  if (!testPlatform && !installed) {
    return { kind: 'end', cause: { kind: 'cannot_join', message: 'The Meeting SDK for Web (@zoom/meetingsdk) is not installed where this bot runs, and this join must go through it.' } };
  }
  const host = await startSdkHostServer(
    installed ? { kind: 'package', distDir: installed.distDir } : { kind: 'url', src: `https://${new URL(meeting.url).host}${MEETING_SDK_STAND_IN_PATH}` },
  );
  const family = vcSdkFamily({ first: { ...credentials, sdk: credentials.sdk }, renew: vcJoin }, host.url, { botName: job.bot_name, recordingMode: job.recording_mode });
  return { kind: 'sdk', family, host };
};

/** The retries while the OBF token's user is absent: the first absence schedules one, each due one runs. */
export class JoinRetry {
  private retryAt: number | null = null;

  constructor(private readonly log: BotLog) {}

  /** Whether a retry ran now (the caller restarts its join clock). */
  async whenDue(now: number, driver: PageDriver, unlessEnded: (work: Promise<void>) => Promise<unknown>, requestEnd: (cause: EndCause) => void): Promise<boolean> {
    const retry = driver.retryJoin;
    if (!retry) return false;
    if (this.retryAt === null) {
      this.retryAt = now + retry.intervalMs;
      this.log.info(`the OBF token's user is not in the meeting: joining again in ${retry.intervalMs / 1000} s`);
      return false;
    }
    if (now < this.retryAt) return false;
    this.retryAt = null;
    try {
      await unlessEnded(retry.run());
    } catch (err) {
      requestEnd({ kind: 'cannot_join', message: `Could not join again: ${(err as Error).message}` });
    }
    return true;
  }
}
