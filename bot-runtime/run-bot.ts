/**
 * One bot run: join the meeting of a BotJob, record it, answer control requests, leave by the rules,
 * store the artifacts and send exactly one EndReport.
 *
 * The run is a loop of ticks (run/tick-loop.ts): read the page through its driver (drivers/, chosen
 * by the meeting URL's host), act on the screen it shows, feed the leave rules, and stop when
 * something ends the run. This file is the join flow and the tick; the call itself is
 * run/in-call.ts, control requests run/control-requests.ts, the end run/finish-run.ts. Control
 * requests arrive concurrently; a leave request sets the end cause, wakes the loop and interrupts
 * whatever the join is waiting for (navigation, a driver's wait).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { ArtifactStore } from './artifacts';
import { countedAttendees } from './attendees';
import { BotLog } from './bot-log';
import { openBotBrowser, type BotBrowser } from './browser/bot-browser';
import type { ReplicaAddress } from './browser/replica-routing';
import type { BotJob, ControlResult, EndReport } from '../contract/bot-contract';
import type { ControlChannel } from './control/control-channel';
import { familyForUrl, replicaHosts } from './drivers/families';
import type { DriverFamily, PageSnapshot, Screen } from './drivers/page-driver';
import type { EndCause } from './end-codes';
import type { Phase } from './leave-rules';
import { fetchBotImages } from './media/bot-images';
import { BotMedia } from './media/bot-media';
import { platformRules } from './meeting/platforms';
import { checkMeetingUrl, type MeetingLocation } from './meeting-url';
import type { Reporter } from './reporters/reporter';
import { AutoLeave } from './run/auto-leave';
import { bounded } from './run/bounded';
import { browserArgsFor } from './run/browser-args';
import { answerControlRequest, sendChatInCall } from './run/control-requests';
import { finishRun } from './run/finish-run';
import { InCall } from './run/in-call';
import { storePageDiagnostic } from './run/diagnostics';
import { MeetingNotes } from './run/meeting-notes';
import { MeetingTab } from './run/meeting-tab';
import { StatusReports } from './run/status-reports';
import { joinErrorCause, wallCause } from './run/join-causes';
import { TickLoop } from './run/tick-loop';
import { AudioStreaming } from './streaming/audio-streaming';
import { testTrustedCa } from './test-ca';
import type { VcJoinAnswer } from './drivers/vc-sdk/vc-sdk-driver';
import { chooseVcJoin, JoinRetry } from './run/vc-sdk-join';
import type { SdkHostServer } from './vc-sdk/host-server';
import type { Uploader } from './uploaders/uploader';
import { signInBeforeJoining } from './sign-in/sign-in-flow';
import type { SignInService } from './sign-in/sign-in-service';

export interface RunOptions {
  /** how often the page is read and the leave rules evaluated */
  readonly tickMs: number;
  /** length of the uploaded audio chunks */
  readonly chunkSeconds: number;
  /** screenshot interval; 0: none */
  readonly screenshotSeconds: number;
  /** from the start until the bot has asked to join (page loaded, name typed, join clicked) */
  readonly joinTimeoutSeconds: number;
  /** a sign-in on the platform's pages that takes longer has timed out */
  readonly signInTimeoutSeconds: number;
  /** a page showing nothing its driver recognises for this long ends the run, with a diagnostic */
  readonly unrecognisedPageSeconds: number;
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
  signInTimeoutSeconds: 60,
  unrecognisedPageSeconds: 30,
  silenceThresholdDb: -60,
  chatConfirmMs: 5000,
  workDir: null,
};

export interface RunDeps {
  readonly reporter: Reporter;
  readonly uploader: Uploader;
  /** where an artifact goes when the uploader keeps failing (the service, when the team allows spill) */
  readonly spill?: Uploader | null;
  readonly control: ControlChannel;
  readonly log?: BotLog;
  /** aborting ends the run; the abort reason is the EndCause (default: a leave request) */
  readonly stop?: AbortSignal;
  /** run in a new context of this browser instead of launching one */
  readonly browser?: Browser;
  /** SANDBOX_REPLICAS: the real platforms' hosts go to the sandbox there (tests only; never in production) */
  readonly sandboxReplicas?: ReplicaAddress | null;
  /** the service's sign-in calls, for a job that signs in (service mode) */
  readonly signIn?: SignInService | null;
  /** tests only: the certificate authority the service passed with the job (test-ca.ts) */
  readonly testCaFromService?: string | null;
  /** vc: asks the service for the join's credentials (a bot without a service joins through the web client) */
  readonly vcJoin?: () => Promise<VcJoinAnswer>;
  readonly options?: Partial<RunOptions>;
}

/** a read of the page that takes longer counts as a failed read (the page is navigating or frozen) */
const PAGE_READ_LIMIT_MS = 10_000;

export const runBot = (job: BotJob, deps: RunDeps): Promise<EndReport> => new BotRun(job, deps).run();

export { joinErrorCause, wallCause };

class BotRun {
  private readonly log: BotLog;
  private readonly opts: RunOptions;
  private readonly artifacts: ArtifactStore;
  private readonly statuses: StatusReports;
  private readonly loop: TickLoop;
  private readonly autoLeave: AutoLeave;
  private readonly notes: MeetingNotes;
  private readonly startedAt = Date.now();

  // opened while joining; null when the run ended before
  private workDir = '';
  private browser: BotBrowser | null = null;
  private tab: MeetingTab | null = null;
  private inCall: InCall | null = null;
  private streaming: AudioStreaming | null = null;
  private media: BotMedia | null = null;
  /** vc Meeting SDK: the bot's own page server, while the run lasts */
  private sdkHost: SdkHostServer | null = null;
  /** when the bot last asked to join (a retry while the OBF token's user is absent asks again) */
  private joinAttemptAt = Date.now();
  /** vc Meeting SDK: joins again while the OBF token's user is absent */
  private readonly joinRetry: JoinRetry;

  private phase: Phase = 'joining';
  private joinClicked = false;
  private snapshotFailures = 0;
  private lastScreen: Screen | null = null;
  /** when the page last showed something its driver recognises (or finished loading) */
  private recognisedAt = Date.now();
  /** the run is finishing: the page is about to go, chat messages are refused */
  private ending = false;

  constructor(
    private readonly job: BotJob,
    private readonly deps: RunDeps,
  ) {
    this.log = deps.log ?? new BotLog();
    this.opts = { ...defaultRunOptions, ...deps.options };
    this.artifacts = new ArtifactStore(deps.uploader, deps.reporter, this.log, Date.now, deps.spill ?? null);
    this.statuses = new StatusReports(deps.reporter, this.log);
    this.loop = new TickLoop(this.log);
    this.autoLeave = new AutoLeave(job.platform, job.timeout_config, this.log);
    this.notes = new MeetingNotes(job.bot_name, job.ignored_participant_names);
    this.joinRetry = new JoinRetry(this.log);
  }

  async run(): Promise<EndReport> {
    this.log.info(`bot ${this.job.bot_id} (${this.job.bot_name}) for ${this.job.meeting_url} on ${this.job.platform}, mode ${this.job.recording_mode}`);
    const stop = this.deps.stop;
    const onStop = () => this.loop.requestEnd((stop?.reason as EndCause | undefined)?.kind ? (stop!.reason as EndCause) : { kind: 'leave_requested' });
    stop?.addEventListener('abort', onStop, { once: true });
    if (stop?.aborted) onStop();
    this.deps.control.start((request) =>
      answerControlRequest(request, { log: this.log, requestEnd: (cause) => this.loop.requestEnd(cause), sendChat: (text) => this.sendChat(text) }),
    );
    try {
      await this.joinAndStay();
    } catch (err) {
      this.log.error(`run failed: ${(err as Error).stack ?? err}`);
      this.loop.requestEnd({ kind: 'internal_error', message: (err as Error).message });
    } finally {
      stop?.removeEventListener('abort', onStop);
    }
    return this.finish();
  }

  /** The customer's endpoints (images, streaming) on public addresses only, unless the service allowed private ones. */
  private get publicAddressesOnly(): boolean {
    return !(this.job.private_addresses_allowed ?? false);
  }

  // ---------------------------------------------------------------- joining and the tick loop

  private async joinAndStay(): Promise<void> {
    const check = checkMeetingUrl(this.job.meeting_url, this.job.platform);
    if (!check.ok) {
      this.loop.requestEnd({ kind: 'invalid_url', message: `Invalid meeting URL: ${check.reason}.` });
      return;
    }
    const family = familyForUrl(check.meeting.url);
    if (!family) {
      this.loop.requestEnd({ kind: 'cannot_join', message: `The bot has no page driver for ${new URL(check.meeting.url).hostname} yet.` });
      return;
    }
    await this.statuses.report('joining_call');
    if (this.loop.endCause) return;
    const sdkFamily = await this.vcSdkFamily(check.meeting);
    if (this.loop.endCause) return;
    this.log.info(`page driver: ${(sdkFamily ?? family).name}`);
    if (!(await this.prepareMedia()) || this.loop.endCause) return;

    const chosen = sdkFamily ?? family;
    const opened = await this.openTab(check.meeting, chosen);
    if (!opened || this.loop.endCause) return;
    const { tab, inCall } = opened;
    const target = chosen.navigationUrl(check.meeting.url);
    if (!(await this.signInIfAsked(tab, target)) || this.loop.endCause) return;
    let navigation;
    try {
      navigation = await this.loop.unlessEnded(tab.page.goto(target, { waitUntil: 'domcontentloaded', timeout: this.opts.joinTimeoutSeconds * 1000 }));
    } catch (err) {
      this.loop.requestEnd({ kind: 'cannot_join', message: `The meeting page could not be loaded: ${(err as Error).message}` });
      return;
    }
    if (navigation.ended) {
      this.log.info('navigation interrupted: the run is ending');
      return;
    }
    this.log.info(`meeting page loaded: HTTP ${navigation.value?.status() ?? '?'}`);
    this.recognisedAt = Date.now();
    tab.startScreenshots();
    await this.loop.run(() => this.tick(tab, inCall), this.opts.tickMs);
  }

  /** vc: the page of this join (run/vc-sdk-join.ts); null: the meeting's own page, as anyone. */
  private async vcSdkFamily(meeting: MeetingLocation): Promise<DriverFamily | null> {
    if (this.job.platform !== 'vc' || !this.deps.vcJoin) return null;
    const choice = await chooseVcJoin(this.job, meeting, this.deps.vcJoin, meeting.sandbox || (this.deps.sandboxReplicas ?? null) !== null);
    if (choice.kind === 'end') this.loop.requestEnd(choice.cause);
    if (choice.kind !== 'sdk') return null;
    this.sdkHost = choice.host;
    return choice.family;
  }

  /**
   * A job with a sign-in signs in on the platform's pages in the meeting's tab before it opens the
   * meeting (sign-in/sign-in-flow.ts). False when the run ends instead; a failed tm sign-in goes on as a guest.
   */
  private async signInIfAsked(tab: MeetingTab, target: string): Promise<boolean> {
    if (!this.job.sign_in) return true;
    if (!this.deps.signIn) {
      this.log.warn('the job asks for a sign-in, but this bot has no service to sign in through: joining as a guest');
      return true;
    }
    const verdict = await this.loop.unlessEnded(
      signInBeforeJoining(this.job, tab.page, this.deps.signIn, target, {
        timeoutMs: this.opts.signInTimeoutSeconds * 1000,
        log: this.log,
        ended: () => this.loop.endCause !== null,
      }),
    );
    if (verdict.ended) return false;
    if (verdict.value.kind === 'end') {
      this.loop.requestEnd(verdict.value.cause);
      return false;
    }
    if (verdict.value.kind === 'guest') this.log.info(`joining as a guest under the bot's name: ${verdict.value.reason}`);
    return true;
  }

  /**
   * Before the browser: the streaming sockets connected (one that cannot be set up ends the run with
   * STREAMING_SETUP_FAILED before the meeting sees the bot) and the bot's pictures fetched (one that
   * cannot be fetched is left out). False when the run ends.
   */
  private async prepareMedia(): Promise<boolean> {
    const extraCa = testTrustedCa(this.log, process.env, this.deps.testCaFromService ?? null);
    const streamingJob = this.job.streaming ?? null;
    if (streamingJob) {
      const streaming = new AudioStreaming(streamingJob, {
        botId: this.job.bot_id,
        extraCa,
        publicOnly: this.publicAddressesOnly,
        log: this.log,
        onInput: (frame) => this.media?.playInput(frame),
      });
      try {
        const connected = await this.loop.unlessEnded(streaming.connect());
        if (connected.ended) {
          streaming.close();
          return false;
        }
      } catch (err) {
        this.loop.requestEnd({ kind: 'streaming_setup_failed', message: `Streaming could not be set up: ${(err as Error).message}` });
        return false;
      }
      this.streaming = streaming;
      this.log.info(`streaming at ${streamingJob.audio_frequency} Hz: ${streaming.hasOutput ? 'output' : ''}${streaming.hasInput && streaming.hasOutput ? ' and ' : ''}${streaming.hasInput ? 'input' : ''} connected`);
    }
    let images: string[] = [];
    if (this.job.bot_image.length > 0) {
      const fetched = await this.loop.unlessEnded(
        fetchBotImages(this.job.bot_image, { extraCa, publicOnly: this.publicAddressesOnly, signal: this.loop.signal, log: this.log }),
      );
      if (fetched.ended) return false;
      images = fetched.value;
      if (images.length === 0) this.log.warn('no bot image could be used: joining without a picture');
    }
    this.media = new BotMedia({
      streaming: this.streaming,
      images,
      imageConfig: this.job.bot_image_config ?? { mode: 'cycle', interval_seconds: 10 },
      log: this.log,
    });
    return true;
  }

  /**
   * The work folder, the browser and the meeting tab, ready to navigate; null when the run ended
   * meanwhile or the sandbox cannot be reached for its certificate. Each is kept as soon as it
   * exists: the end closes whatever was opened before a failure.
   */
  private async openTab(meeting: MeetingLocation, family: DriverFamily): Promise<{ tab: MeetingTab; inCall: InCall } | null> {
    this.workDir = this.opts.workDir ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), `bot-${this.job.bot_id}-`)));
    await fs.promises.mkdir(this.workDir, { recursive: true });
    const replicas = this.deps.sandboxReplicas ? { address: this.deps.sandboxReplicas, hosts: replicaHosts() } : null;
    let args;
    try {
      args = await this.loop.unlessEnded(browserArgsFor(meeting, this.job.trust_sandbox_certificate, replicas, this.log));
    } catch (err) {
      this.loop.requestEnd({ kind: 'cannot_join', message: (err as Error).message });
      return null;
    }
    if (args.ended) return null;
    const t0 = Date.now();
    this.browser = await openBotBrowser(this.deps.browser, args.value);
    const page = await this.browser.context.newPage();
    this.log.info(`browser ready in ${Date.now() - t0} ms`);
    const tab = new MeetingTab(
      page,
      family,
      {
        botName: this.job.bot_name,
        recordingMode: this.job.recording_mode,
        chunkSeconds: this.opts.chunkSeconds,
        screenshotSeconds: this.opts.screenshotSeconds,
        chatConfirmMs: this.opts.chatConfirmMs,
        workDir: this.workDir,
      },
      this.artifacts,
      this.log,
      (cause) => this.loop.requestEnd(cause),
      this.media,
    );
    this.tab = tab;
    const inCall = new InCall({
      entryMessage: this.job.entry_message,
      needsRecordingPermission: { ...platformRules[this.job.platform], ...family.platformRules }.needsRecordingPermission,
      driver: tab.driver,
      recordingMode: this.job.recording_mode,
      recorder: tab.recorder,
      statuses: this.statuses,
      sendChat: (text) => this.sendChat(text),
      requestEnd: (cause) => this.loop.requestEnd(cause),
      endedDuring: async (work) => (await this.loop.unlessEnded(work)).ended,
      log: this.log,
      onRecordingStarted: (at) => this.streaming?.recordingStarted(at),
      onRecordingPaused: (paused) => this.streaming?.setPaused(paused),
    });
    this.inCall = inCall;
    await tab.prepare(() => this.loop.wakeUp());
    return { tab, inCall };
  }

  private async tick(tab: MeetingTab, inCall: InCall): Promise<void> {
    const now = Date.now();
    let snap: PageSnapshot;
    try {
      const read = await this.loop.unlessEnded(bounded(tab.driver.read(this.notes.chatCount), PAGE_READ_LIMIT_MS, 'a read of the page'));
      if (read.ended) return;
      snap = read.value;
      this.snapshotFailures = 0;
    } catch (err) {
      // a navigation or a busy page: try again next tick, give up after a while
      if (++this.snapshotFailures >= 20) throw err;
      return;
    }
    this.notes.noteSnapshot(now, snap);
    if (snap.screen !== this.lastScreen) {
      this.log.info(`screen ${snap.screen}${snap.evidence ? ` (${tab.driver.name} ${snap.evidence})` : ''}`);
      this.lastScreen = snap.screen;
    }
    if (snap.screen !== 'unknown') this.recognisedAt = now;
    const words = snap.notice ? `: "${snap.notice}"` : '';

    switch (snap.screen) {
      case 'unknown':
        await this.onUnrecognisedPage(now, tab);
        break;
      case 'not_found':
        return this.loop.requestEnd({ kind: 'cannot_join', message: `The meeting does not exist${words}.` });
      case 'prejoin':
        if (!this.joinClicked) {
          this.joinClicked = true;
          this.log.info('entering the name and asking to join');
          try {
            await this.loop.unlessEnded(tab.driver.join(this.job.bot_name, this.media?.own));
          } catch (err) {
            // the driver did not find its way through the page: what it saw is kept, as for an unrecognised page
            const kept = await this.keepDiagnostic(tab);
            return this.loop.requestEnd({ kind: 'cannot_join', message: `Could not ask to join: ${(err as Error).message}${kept}` });
          }
        }
        this.expectJoinWithinTimeout(now, 'the meeting did not answer the join request');
        break;
      case 'join_error':
        this.log.warn(`join error: ${snap.notice ?? 'unknown reason'}`);
        return this.loop.requestEnd(joinErrorCause(snap.notice));
      case 'waiting_for_host':
      case 'lobby':
        this.setPhase(snap.screen);
        await this.statuses.report('in_waiting_room');
        break;
      case 'in_call':
        this.setPhase('in_call');
        await inCall.onSnapshot(snap);
        break;
      case 'denied':
        return this.loop.requestEnd({ kind: 'denied' });
      case 'lobby_expired':
        return this.loop.requestEnd({ kind: 'lobby_expired', message: `Nobody admitted the bot; the platform ended its request to join${words}.` });
      case 'wall':
        return this.loop.requestEnd(wallCause(snap.wall, words));
      case 'removed':
        return this.loop.requestEnd(snap.endCause ?? { kind: 'removed' });
      case 'refused':
        return this.loop.requestEnd(snap.endCause ?? { kind: 'cannot_join', message: `The platform refused the join${words}.` });
      case 'waiting_for_authorized_user':
        this.setPhase('waiting_for_user');
        await this.statuses.report('in_waiting_room');
        if (await this.joinRetry.whenDue(now, tab.driver, (work) => this.loop.unlessEnded(work), (cause) => this.loop.requestEnd(cause))) this.joinAttemptAt = now;
        break;
      case 'ended':
        return this.loop.requestEnd({ kind: 'meeting_ended' });
      case 'left':
        // the page left the call without the bot asking (the platform dropped it): the bot is out
        return this.loop.requestEnd({ kind: 'removed' });
    }
    if (this.loop.endCause) return;

    if (this.phase === 'in_call') {
      this.notes.noteParticipants(now, snap);
      const others = snap.participants.filter((p) => p.id !== this.notes.selfId && p.name !== this.job.bot_name).map((p) => p.name);
      this.media?.sendSpeakers(others, snap.activeSpeaker, now);
    }
    const attendees = countedAttendees(snap.participants, { id: this.notes.selfId, name: this.job.bot_name }, this.job.ignored_participant_names).length;
    const level = inCall.recordingStartedAt !== null ? await tab.recorder.takeLevel().catch(() => null) : null;
    // observed now, after this tick's actions (starting the recorder can take a second)
    const leave = this.autoLeave.check({
      now: Date.now(),
      phase: this.phase,
      attendees,
      sound: inCall.recordingStartedAt === null ? null : level !== null && level > this.opts.silenceThresholdDb,
      recordingStartedAt: inCall.recordingStartedAt,
      awaitingPermission: inCall.awaitingPermission,
    });
    if (leave) this.loop.requestEnd({ kind: 'auto_leave', reason: leave });
  }

  /**
   * Nothing recognised: a page still loading, or one the driver does not know. Past
   * `unrecognisedPageSeconds` the bot keeps a diagnostic of it and ends, saying what happened.
   */
  private async onUnrecognisedPage(now: number, tab: MeetingTab): Promise<void> {
    const seconds = this.opts.unrecognisedPageSeconds;
    if (now - this.recognisedAt < seconds * 1000) return;
    const kept = await this.keepDiagnostic(tab);
    let host = '?';
    try {
      host = new URL(tab.page.url()).hostname;
    } catch {
      // no URL to show
    }
    this.loop.requestEnd({
      kind: 'unrecognised_page',
      message: `The ${tab.driver.name} driver recognised nothing on the meeting page (${host}) for ${seconds} s${kept}.`,
    });
  }

  /** Stores the page's diagnostic; `; kept for diagnosis: <keys>` for the end message, or '' when nothing could be kept. */
  private async keepDiagnostic(tab: MeetingTab): Promise<string> {
    const names = [this.job.bot_name, ...this.job.ignored_participant_names, ...this.notes.knownNames()];
    const stored = await storePageDiagnostic(tab, this.artifacts, this.log, names);
    return stored.length ? `; kept for diagnosis: ${stored.join(', ')}` : '';
  }

  private expectJoinWithinTimeout(now: number, what: string): void {
    if (now - this.joinAttemptAt > this.opts.joinTimeoutSeconds * 1000) {
      this.loop.requestEnd({ kind: 'cannot_join', message: `Could not join: ${what} within ${this.opts.joinTimeoutSeconds} s.` });
    }
  }

  private setPhase(phase: Phase): void {
    if (phase !== this.phase) this.log.info(`phase ${this.phase} -> ${phase}`);
    this.phase = phase;
  }

  /** Chat for control requests and the entry message: only in the call, and not once the run is ending. */
  private sendChat(text: string): Promise<ControlResult> {
    return sendChatInCall(text, {
      chat: this.tab?.chat ?? null,
      inCall: this.phase === 'in_call',
      ending: () => this.ending,
      selfId: () => this.notes.selfId,
    });
  }

  // ---------------------------------------------------------------- ending

  private async finish(): Promise<EndReport> {
    this.ending = true;
    try {
      return await this.finishRun();
    } finally {
      await this.sdkHost?.stop();
    }
  }

  private finishRun(): Promise<EndReport> {
    return finishRun(
      {
        job: this.job,
        cause: this.loop.endCause ?? { kind: 'internal_error', message: 'The run ended without a cause.' },
        phase: this.phase,
        admitted: this.inCall?.admitted ?? false,
        recordingStartedAt: this.inCall?.recordingStartedAt ?? null,
        entryMessage: this.inCall?.entryMessage ?? null,
        waitingRoomSeconds: (now) => this.autoLeave.waitingRoomSeconds(now),
        permissionWaitSeconds: (now) => this.autoLeave.permissionWaitSeconds(now),
        notes: this.notes,
        browser: this.browser,
        tab: this.tab,
        streaming: this.streaming,
        media: this.media,
        removeWorkDir: !this.opts.workDir && this.workDir ? this.workDir : null,
      },
      { statuses: this.statuses, control: this.deps.control, artifacts: this.artifacts, reporter: this.deps.reporter, log: this.log },
    );
  }
}
