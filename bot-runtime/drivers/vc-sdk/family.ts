/** The vc Meeting SDK "family": not chosen by the meeting's host but by the join the service signed (run-bot.ts). */
import type { RecordingMode } from '../../../contract/bot-contract';
import type { DriverFamily } from '../page-driver';
import { VcSdkDriver, type VcSdkSession } from './vc-sdk-driver';

export const vcSdkFamily = (session: VcSdkSession, hostUrl: string, options: { readonly botName: string; readonly recordingMode: RecordingMode }): DriverFamily => ({
  name: 'vc-sdk',
  drives: () => false,
  replicaHosts: [],
  navigationUrl: () => hostUrl,
  open: (page, log) => new VcSdkDriver(page, session, hostUrl, options, log),
});
