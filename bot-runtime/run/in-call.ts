/**
 * The bot in the call: on admission, in_call_not_recording and the entry message; then the recorder.
 * tm/mt record at once. vc records only with the host's permission: the bot asks once, a refusal
 * before recording ends the run, and a permission withdrawn while recording pauses the recorders
 * until it is granted again.
 */
import type { BotLog } from '../bot-log';
import type { ControlResult, RecordingMode } from '../../contract/bot-contract';
import type { EndCause } from '../end-codes';
import type { PageDriver, PageSnapshot, RecordingPermission } from '../drivers/page-driver';
import type { Recorder } from '../recorder/recorder';
import type { StatusReports } from './status-reports';

export interface InCallDeps {
  readonly entryMessage: string | null;
  readonly needsRecordingPermission: boolean;
  readonly driver: PageDriver;
  readonly recordingMode: RecordingMode;
  readonly recorder: Recorder;
  readonly statuses: StatusReports;
  readonly sendChat: (text: string) => Promise<ControlResult>;
  readonly requestEnd: (cause: EndCause) => void;
  /** waits for driver work unless the run ends first; true when it ended */
  readonly endedDuring: (work: Promise<unknown>) => Promise<boolean>;
  readonly log: BotLog;
  /** the recorder started at this epoch ms (streaming begins counting) */
  readonly onRecordingStarted?: (at: number) => void;
  /** the recording was paused (true) or resumed (false): streaming stops sending and counting meanwhile */
  readonly onRecordingPaused?: (paused: boolean) => void;
}

export class InCall {
  private wasAdmitted = false;
  private recordingSince: number | null = null;
  private paused = false;
  private permissionRequested = false;
  private lastPermission: RecordingPermission | null = null;
  private entryMessagePosting: Promise<void> | null = null;

  constructor(private readonly deps: InCallDeps) {}

  /** the bot has been in the call (it then has a call to end and chat and participants to store) */
  get admitted(): boolean {
    return this.wasAdmitted;
  }

  /** when the recorder started (epoch ms, measured in the page); null before */
  get recordingStartedAt(): number | null {
    return this.recordingSince;
  }

  /** vc: the permission was asked for and recording has not started: the permission clock runs */
  get awaitingPermission(): boolean {
    return this.deps.needsRecordingPermission && this.recordingSince === null && this.permissionRequested;
  }

  /** settles once the entry message is posted or given up; the end of the run waits for it */
  get entryMessage(): Promise<void> | null {
    return this.entryMessagePosting;
  }

  /** Acts on a read of the page showing the call. */
  async onSnapshot(snap: PageSnapshot): Promise<void> {
    const { deps } = this;
    if (!this.wasAdmitted) {
      this.wasAdmitted = true;
      deps.log.info('admitted to the call');
      await deps.statuses.report('in_call_not_recording');
      // dialogs away and the chat panel open before the entry message; the layout before recording
      const warn = (what: string) => (err: unknown) => deps.log.warn(`${deps.driver.name}: ${what}: ${(err as Error).message}`);
      if (await deps.endedDuring(deps.driver.prepareCall().catch(warn('preparing the call')))) return;
      if (await deps.endedDuring(deps.driver.setLayout(deps.recordingMode).catch(warn('layout')))) return;
      if (deps.entryMessage) {
        const text = deps.entryMessage;
        this.entryMessagePosting = deps.sendChat(text).then((r) => {
          if (r.ok) deps.log.info('entry message posted');
          else deps.log.warn(`entry message not posted: ${r.reason} (${r.message})`);
        });
      }
    }
    if (!deps.needsRecordingPermission) {
      if (this.recordingSince === null) await this.startRecording();
      return;
    }
    const permission = snap.recordingPermission ?? 'none';
    if (permission !== this.lastPermission) {
      deps.log.info(`recording permission: ${permission}`);
      this.lastPermission = permission;
    }
    if (this.recordingSince === null) {
      if (permission === 'granted') await this.startRecording();
      else if (permission === 'denied') deps.requestEnd({ kind: 'permission_denied' });
      else if (permission === 'none' && !this.permissionRequested) {
        this.permissionRequested = true;
        deps.log.info('requesting the recording permission');
        // a failed click leaves the request unanswered: the permission timeout then ends the run
        await deps.driver.requestRecording().catch((err) => deps.log.warn(`recording request: ${(err as Error).message}`));
      }
      return;
    }
    if (permission !== 'granted' && !this.paused) {
      this.paused = true;
      deps.onRecordingPaused?.(true);
      await deps.recorder.pause();
      await deps.statuses.report('recording_paused');
    } else if (permission === 'granted' && this.paused) {
      this.paused = false;
      deps.onRecordingPaused?.(false);
      await deps.recorder.resume();
      await deps.statuses.report('recording_resumed');
    }
  }

  private async startRecording(): Promise<void> {
    try {
      this.recordingSince = await this.deps.recorder.start();
    } catch (err) {
      // the page navigated under the start (a meeting that ends by sending the page elsewhere): the
      // next read says where it went, and a call still there starts the recorder again
      if (/context was destroyed|Cannot find context|navigat|detached/i.test((err as Error).message)) {
        this.deps.log.warn(`the recorder did not start, the page navigated: ${(err as Error).message}`);
        return;
      }
      this.deps.requestEnd({ kind: 'internal_error', message: `The recorder could not start: ${(err as Error).message}` });
      return;
    }
    this.deps.onRecordingStarted?.(this.recordingSince);
    // Starting a video recorder takes up to a second; the recording, and the status, began at its start.
    await this.deps.statuses.report('in_call_recording', this.recordingSince);
  }
}
