/**
 * The end of a run, once the loop has stopped: stop the recorder, take a last look and a last
 * screenshot, leave the meeting and close the browser; then convert and store the recording, store
 * the chat and participants, bot.log, and send the EndReport last. The verdict and the waiting time
 * are taken first, at the moment the run ended: the time spent leaving and storing is not waiting.
 */
import * as fs from 'node:fs';
import type { ArtifactStore } from '../artifacts';
import type { BotLog } from '../bot-log';
import type { BotBrowser } from '../browser/bot-browser';
import type { BotJob, EndReport } from '../../contract/bot-contract';
import type { ControlChannel } from '../control/control-channel';
import { endVerdict, type EndCause } from '../end-codes';
import type { Phase } from '../leave-rules';
import type { Reporter } from '../reporters/reporter';
import type { BotMedia } from '../media/bot-media';
import type { AudioStreaming } from '../streaming/audio-streaming';
import type { MeetingNotes } from './meeting-notes';
import type { MeetingTab } from './meeting-tab';
import { bounded } from './bounded';
import type { StatusReports } from './status-reports';

/** What the run knew and what it had opened when it ended. */
export interface EndOfRun {
  readonly job: BotJob;
  readonly cause: EndCause;
  /** where the bot was when the run ended */
  readonly phase: Phase;
  /** the bot has been in the call */
  readonly admitted: boolean;
  readonly recordingStartedAt: number | null;
  readonly entryMessage: Promise<void> | null;
  readonly waitingRoomSeconds: (now: number) => number;
  readonly permissionWaitSeconds: (now: number) => number;
  readonly notes: MeetingNotes;
  /** null when the run ended before opening them */
  readonly browser: BotBrowser | null;
  readonly tab: MeetingTab | null;
  /** connected before joining; null without streaming or when setting it up failed */
  readonly streaming: AudioStreaming | null;
  readonly media: BotMedia | null;
  /** the temporary work folder the run created (a caller's folder is left alone) */
  readonly removeWorkDir: string | null;
}

export interface FinishDeps {
  readonly statuses: StatusReports;
  readonly control: ControlChannel;
  readonly artifacts: ArtifactStore;
  readonly reporter: Reporter;
  readonly log: BotLog;
}

export const finishRun = async (end: EndOfRun, deps: FinishDeps): Promise<EndReport> => {
  const { job, notes, tab } = end;
  const { artifacts, log } = deps;
  const endAt = Date.now();
  const verdict = endVerdict(end.cause, { platform: job.platform, phase: end.phase, recordingStarted: end.recordingStartedAt !== null });
  const waited = end.waitingRoomSeconds(endAt);
  const waitedForPermission = end.permissionWaitSeconds(endAt);

  await end.entryMessage?.catch(() => undefined);
  const recordingEnd = tab && end.recordingStartedAt !== null ? await tab.recorder.stop() : null;
  // the tap stopped with the recorder: no frame follows; connected time counted until now
  end.streaming?.close();
  end.media?.close();
  await lastLook(tab, notes);
  await tab?.lastScreenshot();
  await tab?.leave(notes.lastScreen === 'in_call');
  if (end.admitted) await deps.statuses.report('call_ended');
  notes.close(Date.now());
  await closeBrowser(end.browser, log);

  try {
    await tab?.recorder.finish();
  } catch (err) {
    log.error(`the recording could not be finished: ${(err as Error).message}`);
  }
  if (end.admitted) {
    await artifacts.store('chat_messages', 'chat_messages.json', 'application/json', json(notes.chatArtifact()));
    await artifacts.store('participants', 'participants.json', 'application/json', json(notes.participantsArtifact()));
    await reportParticipants(deps, notes);
  }
  const report: EndReport = {
    kind: 'end',
    ...verdict,
    error_message: verdict.error_message.slice(0, 2000),
    recorded_seconds: end.recordingStartedAt !== null ? seconds((recordingEnd ?? endAt) - end.recordingStartedAt) : 0,
    waiting_room_seconds: waited,
    permission_wait_seconds: waitedForPermission,
    ...(end.streaming ? { streaming_seconds: end.streaming.connectedSeconds() } : {}),
    at: new Date(Date.now()).toISOString(),
  };
  log.info(`end: ${report.outcome} ${report.error_code} (${report.error_message}) recorded ${report.recorded_seconds} s, waited ${report.waiting_room_seconds} s`);
  await artifacts.store('bot_log', 'bot.log', 'text/plain; charset=utf-8', Buffer.from(log.text()));
  if (end.removeWorkDir) await fs.promises.rm(end.removeWorkDir, { recursive: true, force: true }).catch(() => undefined);
  try {
    await deps.reporter.report(report);
  } catch (err) {
    log.error(`the end report could not be sent: ${(err as Error).message}`);
    throw err;
  } finally {
    // Polled until here: a bot still converting and uploading shows the service it is alive.
    await deps.control.stop().catch((err) => log.warn(`control channel stop: ${(err as Error).message}`));
  }
  return report;
};

/** Who was there, for the final webhook and the legacy views; a lost report loses only this summary. */
const reportParticipants = async (deps: FinishDeps, notes: MeetingNotes): Promise<void> => {
  try {
    await deps.reporter.report({ kind: 'participants', ...notes.participantsSummary(), at: new Date().toISOString() });
  } catch (err) {
    deps.log.warn(`the participants could not be reported: ${(err as Error).message}`);
  }
};

/**
 * One last read of the page before leaving: chat messages and participants seen at the very end. Not
 * on a page that never showed anything (still navigating: a read would wait for it), and bounded.
 */
const lastLook = async (tab: MeetingTab | null, notes: MeetingNotes): Promise<void> => {
  if (!tab?.isOpen || notes.lastScreen === null) return;
  try {
    const now = Date.now();
    const snap = await bounded(tab.driver.read(notes.chatCount), 3000, 'the last read of the page');
    notes.noteLastLook(now, snap);
  } catch {
    // the page is gone: keep what was seen
  }
};

const closeBrowser = async (browser: BotBrowser | null, log: BotLog): Promise<void> => {
  try {
    await browser?.close();
  } catch (err) {
    log.warn(`closing the browser: ${(err as Error).message}`);
  }
};

/** tenths of a second */
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
