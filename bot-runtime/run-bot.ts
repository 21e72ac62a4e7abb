/**
 * One bot run: join the meeting of a BotJob, record it, answer control requests, leave by the rules,
 * store the artifacts and send exactly one EndReport.
 *
 * The run is a loop of ticks (every `tickMs`): read the page (DOM hooks), act on the screen it shows,
 * feed the leave rules, and stop when something ends the run. Control requests arrive concurrently;
 * a leave request only sets the end cause and wakes the loop.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { ArtifactStore } from './artifacts';
import { countedAttendees } from './attendees';
import { BotLog } from './bot-log';
import { launchBrowser } from './browser/launch-browser';
import { sandboxTrustArgs } from './browser/sandbox-trust';
import { ChatLog } from './chat-log';
import type { BotJob, ControlRequest, ControlResult, EndReport, LiveStatus } from './contract';
import type { ControlChannel } from './control/control-channel';
import { endVerdict, type EndCause } from './end-codes';
import { decideLeave, initialClocks, observe, waitingRoomSeconds, type LeaveClocks, type Phase } from './leave-rules';
import { ChatSender, withId } from './meeting/chat-sender';
import { MeetingPage, type PageSnapshot } from './meeting/meeting-page';
import { pageWatcherSource, WAKE_BINDING } from './meeting/page-watcher';
import { platformRules } from './meeting/platforms';
import { checkMeetingUrl } from './meeting-url';
import { ParticipantsLog } from './participants-log';
import { Recorder } from './recorder/recorder';
import type { Reporter } from './reporters/reporter';
import { Screenshots } from './screenshots';
import type { Uploader } from './uploaders/uploader';

export interface RunOptions {
  /** how often the page is read and the leave rules evaluated */
  readonly tickMs: number;
  /** length of the uploaded audio chunks */
  readonly chunkSeconds: number;
  /** screenshot interval; 0: none */
  readonly screenshotSeconds: number;
  /** from the start until the bot has asked to join (page loaded, name typed, join clicked) */
  readonly joinTimeoutSeconds: number;
  /** the captured audio is "sound" above this RMS level */
  readonly silenceThresholdDb: number;
  /** how long a sent chat message may take to show up in the chat panel */
  readonly chatConfirmMs: number;
  /** a private folder for the work files (default: a fresh temporary folder, removed at the end) */
  readonly workDir: string | null;
}

export const defaultRunOptions: RunOptions = {
  tickMs: 500,
  chunkSeconds: 10,
  screenshotSeconds: 5,
  joinTimeoutSeconds: 60,
  silenceThresholdDb: -60,
  chatConfirmMs: 5000,
  workDir: null,
};

export interface RunDeps {
  readonly reporter: Reporter;
  readonly uploader: Uploader;
  readonly control: ControlChannel;
  readonly log?: BotLog;
  /** aborting ends the run; the abort reason is the EndCause (default: a leave request) */
  readonly stop?: AbortSignal;
  /** run in a new context of this browser instead of launching one */
  readonly browser?: Browser;
  readonly options?: Partial<RunOptions>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.round(ms / 100) / 10;

export const runBot = (job: BotJob, deps: RunDeps): Promise<EndReport> => new BotRun(job, deps).run();

class BotRun {
  private readonly log: BotLog;
  private readonly opts: RunOptions;
  private readonly artifacts: ArtifactStore;
  private readonly rules;
  private readonly chatLog: ChatLog;
  private readonly participants: ParticipantsLog;

  private browser: Browser | null = null;
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private meeting: MeetingPage | null = null;
  private recorder: Recorder | null = null;
  private screenshots: Screenshots | null = null;
  private workDir = '';

  private phase: Phase = 'joining';
  private clocks: LeaveClocks = initialClocks;
  private reported = new Set<LiveStatus>();
  private lastStatus: LiveStatus | null = null;
  private endCause: EndCause | null = null;
  private ending = false;
  private wake: (() => void) | null = null;
  private wakePending = false;

  private startedAt = Date.now();
  private joinClicked = false;
  private selfId: string | null = null;
  private everInCall = false;
  private recordingSince: number | null = null;
  private recordingEnd: number | null = null;
  private paused = false;
  private permissionRequested = false;
  private lastPermission: string | null = null;
  private lastSnapshot: PageSnapshot | null = null;
  private chat: ChatSender | null = null;
  private entryMessage: Promise<void> | null = null;
  private graceLogged: string | null = null;
  private snapshotFailures = 0;

  constructor(
    private readonly job: BotJob,
    private readonly deps: RunDeps,
  ) {
    this.log = deps.log ?? new BotLog();
    this.opts = { ...defaultRunOptions, ...deps.options };
    this.artifacts = new ArtifactStore(deps.uploader, deps.reporter, this.log);
    this.rules = platformRules[job.platform];
    this.chatLog = new ChatLog(job.bot_name);
    this.participants = new ParticipantsLog(job.ignored_participant_names);
  }

  async run(): Promise<EndReport> {
    this.log.info(`bot ${this.job.bot_id} (${this.job.bot_name}) for ${this.job.meeting_url} on ${this.job.platform}, mode ${this.job.recording_mode}`);
    const stop = this.deps.stop;
    const onStop = () => this.requestEnd((stop?.reason as EndCause | undefined)?.kind ? (stop!.reason as EndCause) : { kind: 'leave_requested' });
    stop?.addEventListener('abort', onStop, { once: true });
    if (stop?.aborted) onStop();
    this.deps.control.start((request) => this.onControl(request));
    try {
      await this.joinAndStay();
    } catch (err) {
      this.log.error(`run failed: ${(err as Error).stack ?? err}`);
      this.requestEnd({ kind: 'internal_error', message: (err as Error).message });
    } finally {
      stop?.removeEventListener('abort', onStop);
    }
    return this.finish();
  }

  // ---------------------------------------------------------------- joining and the tick loop

  private async joinAndStay(): Promise<void> {
    const check = checkMeetingUrl(this.job.meeting_url, this.job.platform);
    if (!check.ok) {
      this.requestEnd({ kind: 'invalid_url', message: `Invalid meeting URL: ${check.reason}.` });
      return;
    }
    await this.status('joining_call');
    if (this.endCause) return;

    this.workDir = this.opts.workDir ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), `bot-${this.job.bot_id}-`)));
    await fs.promises.mkdir(this.workDir, { recursive: true });
    let trust: string[] = [];
    if (this.job.trust_sandbox_certificate && check.meeting.sandbox) {
      try {
        trust = await sandboxTrustArgs(check.meeting.url);
      } catch (err) {
        this.requestEnd({ kind: 'cannot_join', message: `The meeting host is unreachable: ${(err as Error).message}` });
        return;
      }
    }
    if (this.job.trust_sandbox_certificate && !check.meeting.sandbox) this.log.warn('trust_sandbox_certificate ignored: not a sandbox URL');
    const t0 = Date.now();
    if (this.deps.browser) {
      this.context = await this.deps.browser.createBrowserContext();
    } else {
      this.browser = await launchBrowser({ args: trust });
      this.context = this.browser.defaultBrowserContext();
    }
    this.page = await this.context.newPage();
    this.log.info(`browser ready in ${Date.now() - t0} ms`);
    this.page.on('pageerror', (err) => this.log.warn(`page error: ${(err as Error).message}`));
    this.page.on('error', (err) => this.requestEnd({ kind: 'internal_error', message: `The meeting page crashed: ${err.message}` }));
    this.meeting = new MeetingPage(this.page);
    this.chat = new ChatSender(this.meeting, this.job.bot_name, this.opts.chatConfirmMs);
    this.recorder = new Recorder(this.page, { mode: this.job.recording_mode, chunkSeconds: this.opts.chunkSeconds, workDir: this.workDir }, this.artifacts, this.log);
    await this.recorder.install();
    await this.page.exposeFunction(WAKE_BINDING, () => this.wakeUp());
    await this.page.evaluateOnNewDocument(pageWatcherSource);
    this.screenshots = new Screenshots(this.page, this.artifacts, this.log, this.opts.screenshotSeconds);

    try {
      const res = await this.page.goto(check.meeting.url, { waitUntil: 'domcontentloaded', timeout: this.opts.joinTimeoutSeconds * 1000 });
      this.log.info(`meeting page loaded: HTTP ${res?.status() ?? '?'}`);
    } catch (err) {
      this.requestEnd({ kind: 'cannot_join', message: `The meeting page could not be loaded: ${(err as Error).message}` });
      return;
    }
    this.screenshots.start();

    while (!this.endCause) {
      await this.tick();
      if (this.endCause) break;
      if (this.wakePending) {
        this.wakePending = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.opts.tickMs);
        this.wake = () => (clearTimeout(t), resolve());
      });
      this.wake = null;
      this.wakePending = false;
    }
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    let snap: PageSnapshot;
    try {
      snap = await this.meeting!.snapshot(this.chatLog.count);
      this.snapshotFailures = 0;
    } catch (err) {
      // a navigation or a busy page: try again next tick, give up after a while
      if (++this.snapshotFailures >= 20) throw err;
      return;
    }
    this.lastSnapshot = snap;
    if (snap.selfId && snap.selfId !== this.selfId) {
      this.selfId = snap.selfId;
      this.participants.setSelf(snap.selfId);
    }
    if (snap.chat.length) this.chatLog.add(now, snap.chat, this.selfId);

    switch (snap.screen) {
      case 'loading':
        this.expectJoinWithinTimeout(now, 'the meeting page did not show its pre-join screen');
        break;
      case 'not_found':
        return this.requestEnd({ kind: 'cannot_join', message: 'The meeting does not exist.' });
      case 'prejoin':
        if (!this.joinClicked) {
          this.joinClicked = true;
          this.log.info('entering the name and asking to join');
          try {
            await this.meeting!.enterNameAndJoin(this.job.bot_name);
          } catch (err) {
            return this.requestEnd({ kind: 'cannot_join', message: `Could not ask to join: ${(err as Error).message}` });
          }
        }
        this.expectJoinWithinTimeout(now, 'the meeting did not answer the join request');
        break;
      case 'join_error':
        return this.requestEnd({ kind: 'cannot_join', message: `The platform refused to join: ${snap.joinError ?? 'unknown reason'}` });
      case 'waiting_for_host':
      case 'lobby':
        this.setPhase(snap.screen);
        await this.status('in_waiting_room');
        break;
      case 'in_call':
        this.setPhase('in_call');
        await this.inCall(snap);
        break;
      case 'denied':
        return this.requestEnd({ kind: 'denied' });
      case 'removed':
        return this.requestEnd({ kind: 'removed' });
      case 'ended':
        return this.requestEnd({ kind: 'meeting_ended' });
      case 'left':
        // the page left the call without the bot asking (the platform dropped it): the bot is out
        return this.requestEnd({ kind: 'removed' });
    }
    if (this.endCause) return;

    if (this.phase === 'in_call') {
      this.participants.update(now, snap.participants, snap.activeSpeaker);
    }
    const attendees = countedAttendees(snap.participants, { id: this.selfId, name: this.job.bot_name }, this.job.ignored_participant_names).length;
    const level = this.recordingSince !== null ? await this.recorder!.takeLevel().catch(() => null) : null;
    // observed now, after this tick's actions (starting the recorder can take a second)
    const observedAt = Date.now();
    this.clocks = observe(this.clocks, {
      now: observedAt,
      phase: this.phase,
      attendees,
      sound: this.recordingSince === null ? null : level !== null && level > this.opts.silenceThresholdDb,
      recordingStartedAt: this.recordingSince,
      awaitingPermission: this.rules.needsRecordingPermission && this.recordingSince === null && this.permissionRequested,
    });
    const decision = decideLeave(this.clocks, this.job.platform, this.job.timeout_config, observedAt);
    if (decision.kind === 'leave') {
      this.log.info(`automatic leave: ${decision.reason}`);
      this.requestEnd({ kind: 'auto_leave', reason: decision.reason });
    } else if (decision.kind === 'grace' && this.graceLogged !== decision.reason) {
      this.graceLogged = decision.reason;
      this.log.info(`leave condition ${decision.reason} met; grace period until ${iso(decision.leaveAt)}`);
    } else if (decision.kind === 'stay') {
      this.graceLogged = null;
    }
  }

  private expectJoinWithinTimeout(now: number, what: string): void {
    if (now - this.startedAt > this.opts.joinTimeoutSeconds * 1000) {
      this.requestEnd({ kind: 'cannot_join', message: `Could not join: ${what} within ${this.opts.joinTimeoutSeconds} s.` });
    }
  }

  private setPhase(phase: Phase): void {
    if (phase !== this.phase) this.log.info(`phase ${this.phase} -> ${phase}`);
    this.phase = phase;
  }

  private async inCall(snap: PageSnapshot): Promise<void> {
    if (!this.everInCall) {
      this.everInCall = true;
      this.log.info('admitted to the call');
      await this.status('in_call_not_recording');
      if (this.job.entry_message) {
        const text = this.job.entry_message;
        this.entryMessage = this.sendChat(text).then((r) => {
          if (r.ok) this.log.info('entry message posted');
          else this.log.warn(`entry message not posted: ${r.reason} (${r.message})`);
        });
      }
    }
    if (!this.rules.needsRecordingPermission) {
      if (this.recordingSince === null) await this.startRecording();
      return;
    }
    // vc: ask once, record once granted; a permission withdrawn while recording pauses it.
    const permission = snap.recordingPermission ?? 'none';
    if (permission !== this.lastPermission) {
      this.log.info(`recording permission: ${permission}`);
      this.lastPermission = permission;
    }
    if (this.recordingSince === null) {
      if (permission === 'granted') await this.startRecording();
      else if (permission === 'denied') this.requestEnd({ kind: 'permission_denied' });
      else if (permission === 'none' && !this.permissionRequested) {
        this.permissionRequested = true;
        this.log.info('requesting the recording permission');
        // a failed click leaves the request unanswered: the permission timeout then ends the run
        await this.meeting!.requestRecording().catch((err) => this.log.warn(`recording request: ${(err as Error).message}`));
      }
      return;
    }
    if (permission !== 'granted' && !this.paused) {
      this.paused = true;
      await this.recorder!.pause();
      await this.status('recording_paused');
    } else if (permission === 'granted' && this.paused) {
      this.paused = false;
      await this.recorder!.resume();
      await this.status('recording_resumed');
    }
  }

  private async startRecording(): Promise<void> {
    try {
      this.recordingSince = await this.recorder!.start();
    } catch (err) {
      this.requestEnd({ kind: 'internal_error', message: `The recorder could not start: ${(err as Error).message}` });
      return;
    }
    await this.status('in_call_recording');
  }

  // ---------------------------------------------------------------- control requests

  private async onControl(request: ControlRequest): Promise<ControlResult> {
    this.log.info(`control request ${request.id}: ${request.kind}`);
    if (request.kind === 'leave') {
      this.requestEnd({ kind: 'leave_requested' });
      return { id: request.id, ok: true };
    }
    return { ...(await this.sendChat(request.message)), id: request.id };
  }

  /** Posts a chat message and waits until the chat panel shows it (one message at a time). */
  private async sendChat(text: string): Promise<ControlResult> {
    const notInCall = { ok: false, reason: 'not_in_call', message: 'The bot is not in the call.' } as const;
    if (this.phase !== 'in_call' || this.ending || !this.chat) return withId('', notInCall);
    try {
      return withId('', await this.chat.send(text, () => this.selfId));
    } catch (err) {
      // the page went away under the send: the bot is leaving
      return withId('', this.ending ? notInCall : { ok: false, reason: 'failed', message: (err as Error).message });
    }
  }

  // ---------------------------------------------------------------- ending

  /** Runs the next tick now (the page changed, or the run must end). */
  private wakeUp(): void {
    this.wakePending = true;
    this.wake?.();
  }

  private requestEnd(cause: EndCause): void {
    if (this.endCause) return;
    this.endCause = cause;
    this.log.info(`ending: ${cause.kind}${'reason' in cause ? ` (${cause.reason})` : ''}${'message' in cause ? `: ${cause.message}` : ''}`);
    this.wakeUp();
  }

  private async status(status: LiveStatus): Promise<void> {
    if (this.reported.has(status) && status !== 'recording_paused' && status !== 'recording_resumed') return;
    if (status === this.lastStatus) return;
    this.reported.add(status);
    this.lastStatus = status;
    this.log.info(`status ${status}`);
    try {
      await this.deps.reporter.report({ kind: 'status', status, at: iso(Date.now()) });
    } catch (err) {
      this.log.error(`status report ${status} failed: ${(err as Error).message}`);
    }
  }

  private async finish(): Promise<EndReport> {
    this.ending = true;
    const cause = this.endCause ?? { kind: 'internal_error', message: 'The run ended without a cause.' };
    const endAt = Date.now();
    const verdict = endVerdict(cause, { platform: this.job.platform, phase: this.phase, recordingStarted: this.recordingSince !== null });
    const waited = waitingRoomSeconds(this.clocks, endAt);

    await this.entryMessage?.catch(() => undefined);
    if (this.recorder && this.recordingSince !== null) this.recordingEnd = await this.recorder.stop();
    await this.finalLook();
    if (this.screenshots) {
      await this.screenshots.stop();
      if (this.page && !this.page.isClosed()) await this.screenshots.take();
    }
    await this.leavePage();
    if (this.everInCall) await this.status('call_ended');
    this.participants.close(Date.now());
    await this.deps.control.stop().catch((err) => this.log.warn(`control channel stop: ${(err as Error).message}`));
    await this.closeBrowser();

    try {
      await this.recorder?.finish();
    } catch (err) {
      this.log.error(`the recording could not be finished: ${(err as Error).message}`);
    }
    if (this.everInCall) {
      await this.artifacts.store('chat_messages', 'chat_messages.json', 'application/json', json(this.chatLog.toArtifact()));
      await this.artifacts.store('participants', 'participants.json', 'application/json', json(this.participants.toArtifact()));
    }
    const report: EndReport = {
      kind: 'end',
      ...verdict,
      error_message: verdict.error_message.slice(0, 2000),
      recorded_seconds: this.recordingSince !== null ? seconds((this.recordingEnd ?? endAt) - this.recordingSince) : 0,
      waiting_room_seconds: waited,
      at: iso(Date.now()),
    };
    this.log.info(`end: ${report.outcome} ${report.error_code} (${report.error_message}) recorded ${report.recorded_seconds} s, waited ${report.waiting_room_seconds} s`);
    await this.artifacts.store('bot_log', 'bot.log', 'text/plain; charset=utf-8', Buffer.from(this.log.text()));
    if (!this.opts.workDir && this.workDir) await fs.promises.rm(this.workDir, { recursive: true, force: true }).catch(() => undefined);
    try {
      await this.deps.reporter.report(report);
    } catch (err) {
      this.log.error(`the end report could not be sent: ${(err as Error).message}`);
      throw err;
    }
    return report;
  }

  /**
   * Leaves the meeting: the leave button in the call; then the page goes away, which also takes the
   * bot out of a lobby or a waiting screen (the platform hears of it on pagehide).
   */
  private async leavePage(): Promise<void> {
    if (!this.meeting || !this.page || this.page.isClosed()) return;
    if (this.lastSnapshot?.screen === 'in_call' && (await this.meeting.leaveCall().catch(() => false))) this.log.info('left the call');
    try {
      await this.page.goto('about:blank', { timeout: 5000 });
    } catch (err) {
      this.log.warn(`leaving the page: ${(err as Error).message}`);
    }
  }

  /** One last read of the page before leaving: chat messages and participants seen at the very end. */
  private async finalLook(): Promise<void> {
    if (!this.meeting || !this.page || this.page.isClosed()) return;
    try {
      const now = Date.now();
      const snap = await this.meeting.snapshot(this.chatLog.count);
      if (snap.chat.length) this.chatLog.add(now, snap.chat, this.selfId);
      if (snap.screen === 'in_call') this.participants.update(now, snap.participants, snap.activeSpeaker);
      this.lastSnapshot = snap;
    } catch {
      // the page is gone: keep what was seen
    }
  }

  private async closeBrowser(): Promise<void> {
    try {
      if (this.browser) await this.browser.close();
      else if (this.context) await this.context.close();
    } catch (err) {
      this.log.warn(`closing the browser: ${(err as Error).message}`);
    }
  }
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
