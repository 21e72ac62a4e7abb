/**
 * The page-driver interface: everything the run asks of a meeting page, whatever platform serves it.
 * One driver family per platform family (drivers/families.ts picks it from the meeting URL's host);
 * the run (run-bot.ts) only talks to this interface.
 */
import type { Page } from 'puppeteer-core';
import type { SeenParticipant } from '../attendees';
import type { BotLog } from '../bot-log';
import type { SeenChatMessage } from '../chat-log';
import type { RecordingMode } from '../../contract/bot-contract';
import type { EndCause } from '../end-codes';
import type { PlatformRules } from '../meeting/platforms';
import type { RuleVerdict } from './in-page/state-scan';

/** What the page shows, as far as the run cares. */
export type Screen =
  /** nothing the driver recognises (yet): loading, or a page it does not know */
  | 'unknown'
  | 'not_found'
  | 'prejoin'
  | 'join_error'
  | 'waiting_for_host'
  | 'lobby'
  | 'in_call'
  | 'denied'
  | 'removed'
  | 'ended'
  | 'left'
  /** the platform gave up on the request to join itself (Meet's own lobby timeout) */
  | 'lobby_expired'
  /** the platform will not let this bot in at all (see `wall`) */
  | 'wall'
  /** vc Meeting SDK: the OBF token's user is not in the meeting yet; the run joins again (`retryJoin`) */
  | 'waiting_for_authorized_user'
  /** the platform refused the join for a reason the page names as the run's end (`endCause`) */
  | 'refused';

/**
 * blocked: the platform refuses the bot (Meet's "You can't join this video call"); login_required: only
 * signed-in users; cannot_join: the platform keeps bots out whatever the host does (Zoom's bot wall
 * and captcha), so the meeting cannot be joined at all
 */
export type WallKind = 'blocked' | 'login_required' | 'cannot_join';

export type RecordingPermission = 'none' | 'pending' | 'granted' | 'denied';

export interface PageSnapshot {
  readonly screen: Screen;
  /** which rule recognised the screen (a text, a selector), for the log */
  readonly evidence: string | null;
  /** the page's own words for a join error, a wall or a refusal, when it shows some */
  readonly notice: string | null;
  /** set when `screen` is `wall` */
  readonly wall: WallKind | null;
  /** the page's own participant id, when the page shows it */
  readonly selfId: string | null;
  readonly participants: SeenParticipant[];
  readonly activeSpeaker: string | null;
  readonly chatDisabled: boolean;
  /** chat messages after the `chatSince` index passed to `read` */
  readonly chat: SeenChatMessage[];
  /** sandbox vc only; null when the page has no recording-permission hook */
  readonly recordingPermission: RecordingPermission | null;
  /** how the run ends when the page says so itself (`refused`, or `removed` for a reason of its own); absent: by the screen */
  readonly endCause?: EndCause | null;
}

/**
 * What the bot brings of its own (media/bot-media.ts): a microphone when streaming input plays into it,
 * a camera when it has a picture. The driver leaves each of them on, and the other ones off.
 */
export interface OwnMedia {
  readonly microphone: boolean;
  readonly camera: boolean;
}

export const noOwnMedia: OwnMedia = { microphone: false, camera: false };

export interface ChatControls {
  /** the longest message the platform takes at once; longer ones are sent in parts */
  readonly maxLength: number;
  disabled(): Promise<boolean>;
  /** puts `text` in the composer and sends it */
  post(text: string): Promise<void>;
  /** the page's words when it refused a message, if it shows any */
  error(): Promise<string | null>;
  /** messages with exactly `text` sent by the bot (by participant id when known, else by name) */
  countOwn(selfId: string | null, botName: string, text: string): Promise<number>;
}

/**
 * Why a driver reads the page as it does (for an unrecognised page's diagnostic): the state it last
 * recognised and on what evidence, and each place's verdict on every rule it checked.
 */
export interface PageExplanation {
  /** the page's URL without query or fragment (they may carry passcodes) */
  readonly url: string;
  readonly title: string;
  /** the last screen the driver recognised, on what evidence, and when (ISO 8601); null: none yet */
  readonly believed: { readonly screen: Screen; readonly evidence: string | null; readonly at: string } | null;
  /** the driver has seen the call (rules of the `after_call` phase apply) */
  readonly admitted: boolean;
  /** closed shadow roots found through the DevTools protocol */
  readonly closedShadowRoots: number;
  /** every place scanned (main document, frames, closed shadow roots) with each rule's verdict */
  readonly places: { readonly where: string; readonly verdicts: RuleVerdict[] }[];
}

export interface PageDriver {
  /** the family's name, in logs and messages */
  readonly name: string;
  /** One read of the page: the screen and what the bot notes from it. */
  read(chatSince: number): Promise<PageSnapshot>;
  /**
   * Pre-join: dismiss what is in the way, type the name, microphone and camera off unless the bot
   * brings its own (`own`; then on, and kept on in the call), ask to join.
   */
  join(botName: string, own?: OwnMedia): Promise<void>;
  /** Once admitted: dismiss dialogs and open what must be open to be read (the chat panel). */
  prepareCall(): Promise<void>;
  /** The layout the recording shows: speaker_view and gallery_view (audio_only leaves it alone). */
  setLayout(mode: RecordingMode): Promise<void>;
  /** Sandbox vc: ask the host for the recording permission; elsewhere nothing to ask. */
  requestRecording(): Promise<void>;
  readonly chat: ChatControls;
  /** Leaves the call if the page shows it (waits up to `timeoutMs` for the call to go); whether it clicked. */
  leaveCall(timeoutMs?: number): Promise<boolean>;
  /** The page's HTML without chat text, names (`names` and those the page shows) or scripts: for diagnostics. */
  redactedHtml(names: readonly string[]): Promise<string>;
  /** What the driver believes the page shows, and why (every rule's verdict): for diagnostics. */
  explain(): Promise<PageExplanation>;
  /** vc Meeting SDK: joins again while the OBF token's user is absent (fresh tokens when they can be had), every `intervalMs` */
  readonly retryJoin?: { readonly intervalMs: number; run(): Promise<void> };
}

export interface DriverFamily {
  /** e.g. `sandbox`, `google-meet` */
  readonly name: string;
  /** whether it drives meetings of this host (lower case, no trailing dot) */
  drives(host: string): boolean;
  /** the real hosts a sandbox replica of this platform answers for (mapped by SANDBOX_REPLICAS) */
  readonly replicaHosts: readonly string[];
  /** the URL to open for a meeting URL (e.g. with the page language pinned) */
  navigationUrl(meetingUrl: string): string;
  /** where this client differs from its platform's rules (meeting/platforms.ts), e.g. no recording permission to ask */
  readonly platformRules?: Partial<PlatformRules>;
  open(page: Page, log: BotLog): PageDriver;
}
