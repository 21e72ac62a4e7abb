/**
 * The driver of a vc join through the platform's Meeting SDK for Web: the page is the bot's own (served
 * by the bot, vc-sdk/host-server.ts), the SDK renders the meeting in it, and the driver reads the state the
 * page keeps from the SDK's callbacks and events (`window.botSdk`), not the SDK's DOM. Joining passes the
 * service's join credentials to the SDK; while the OBF token's user is absent the run joins again through
 * `retryJoin`, with fresh credentials when they can be renewed.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../../bot-log';
import type { RecordingMode, VcJoinCredentials, VcJoinRefusal, VcSdkJoin } from '../../../contract/bot-contract';
import type { ChatControls, PageDriver, PageExplanation, PageSnapshot, RecordingPermission, Screen } from '../page-driver';
import { AUTHORIZED_USER_LEFT_CODE, sdkErrorOutcome } from './sdk-errors';

/** What the service answers for a join (contract/bot-contract.ts). */
export type VcJoinAnswer = { readonly ok: true; readonly credentials: VcJoinCredentials } | { readonly ok: false; readonly refusal: VcJoinRefusal };

export interface VcSdkSession {
  /** the credentials of the first join (already fetched before the browser started) */
  readonly first: VcJoinCredentials & { readonly sdk: VcSdkJoin };
  /** asks the service again (a retry: a fresh OBF token when its source gives one) */
  renew(): Promise<VcJoinAnswer>;
}

interface SdkState {
  readonly phase: 'loading' | 'ready' | 'joining' | 'waiting_for_host' | 'lobby' | 'in_call' | 'ended' | 'removed' | 'left' | 'failed';
  readonly error: { readonly code: number; readonly message: string } | null;
  readonly selfId: string | null;
  readonly participants: readonly { readonly id: string; readonly name: string }[];
  readonly activeSpeaker: string | null;
  readonly chatCount: number;
  readonly chat: readonly { readonly senderId: string; readonly senderName: string; readonly text: string }[];
  readonly chatDisabled: boolean;
  readonly recordingPermission: RecordingPermission;
  readonly leftCode: number | null;
  readonly leftReason: string | null;
}

/** The Client View's layouts (init `defaultView`): the recording shows what the page shows. */
const defaultViewOf = (mode: RecordingMode): 'speaker' | 'gallery' => (mode === 'gallery_view' ? 'gallery' : 'speaker');

const screens: Readonly<Record<SdkState['phase'], Screen>> = {
  loading: 'unknown',
  ready: 'prejoin',
  joining: 'prejoin',
  waiting_for_host: 'waiting_for_host',
  lobby: 'lobby',
  in_call: 'in_call',
  ended: 'ended',
  removed: 'removed',
  left: 'left',
  failed: 'refused',
};

export class VcSdkDriver implements PageDriver {
  readonly name = 'vc-sdk';
  readonly chat: ChatControls;
  readonly retryJoin: PageDriver['retryJoin'];
  private credentials: VcSdkJoin;
  /** a refusal of the service when it was asked again: the run's end */
  private renewalRefused: VcJoinRefusal | null = null;

  constructor(
    private readonly page: Page,
    private readonly session: VcSdkSession,
    private readonly hostUrl: string,
    private readonly options: { readonly botName: string; readonly recordingMode: RecordingMode },
    private readonly log: BotLog,
  ) {
    this.credentials = session.first.sdk;
    this.retryJoin = { intervalMs: session.first.retry_seconds * 1000, run: () => this.joinAgain() };
    this.chat = {
      // one message of the platform holds 4096 characters, as the spec's chat limit
      maxLength: 4096,
      disabled: async () => (await this.state())?.chatDisabled ?? false,
      post: async (text) => {
        await this.page.evaluate((t: string) => (window as unknown as { botSdk: { sendChat(t: string): Promise<boolean> } }).botSdk.sendChat(t), text);
      },
      error: async () => null,
      countOwn: async (selfId, botName, text) => {
        const st = await this.state();
        return st ? st.chat.filter((m) => m.text === text && (selfId !== null ? m.senderId === selfId : m.senderName === botName)).length : 0;
      },
    };
  }

  private async state(): Promise<SdkState | null> {
    return (await this.page.evaluate('window.botSdk ? window.botSdk.state() : null')) as SdkState | null;
  }

  async read(chatSince: number): Promise<PageSnapshot> {
    const st = await this.state();
    const base = { evidence: null, notice: null, wall: null, selfId: null, participants: [], activeSpeaker: null, chatDisabled: false, chat: [], recordingPermission: null };
    if (this.renewalRefused) {
      const { error_code, message } = this.renewalRefused;
      return { ...base, screen: 'refused', evidence: 'the service refused the join credentials', endCause: { kind: 'vc_refused', error_code, message } };
    }
    if (!st) return { ...base, screen: 'unknown' };
    const common = {
      ...base,
      evidence: `sdk ${st.phase}`,
      selfId: st.selfId,
      participants: [...st.participants],
      activeSpeaker: st.activeSpeaker,
      chatDisabled: st.chatDisabled,
      chat: st.chat.slice(chatSince).map((m) => ({ sender_name: m.senderName, participant_id: m.senderId, text: m.text })),
      recordingPermission: st.recordingPermission,
    };
    if (st.phase === 'removed' && st.leftCode === AUTHORIZED_USER_LEFT_CODE) return { ...common, screen: 'removed', notice: st.leftReason, endCause: { kind: 'authorized_user_left' } };
    if (st.phase !== 'failed' || !st.error) return { ...common, screen: screens[st.phase] };
    const outcome = sdkErrorOutcome(st.error.code, st.error.message, { zak: this.credentials.zak !== null, obf: this.credentials.obf_token !== null });
    if (outcome.kind === 'retry') return { ...common, screen: 'waiting_for_authorized_user', notice: st.error.message };
    if (outcome.kind === 'waiting_for_host') return { ...common, screen: 'waiting_for_host' };
    return { ...common, screen: 'refused', notice: st.error.message, endCause: outcome.cause };
  }

  /**
   * The SDK page has no rules to weigh: what it believed is the SDK's own phase and error, read as it
   * reports them (the diagnostics of an unrecognised page).
   */
  async explain(): Promise<PageExplanation> {
    const st = await this.state();
    const url = new URL(this.page.url());
    const evidence = st ? `sdk ${st.phase}${st.error ? `, error ${st.error.code}: ${st.error.message}` : ''}` : 'the SDK page does not answer';
    return {
      url: `${url.origin}${url.pathname}`,
      title: await this.page.title().catch(() => ''),
      believed: st ? { screen: screens[st.phase], evidence, at: new Date().toISOString() } : null,
      admitted: st?.phase === 'in_call',
      closedShadowRoots: 0,
      places: [{ where: 'Meeting SDK page', verdicts: [] }],
    };
  }

  /** The SDK's join with the service's credentials; the name is the bot's (the SDK's `userName`). */
  async join(botName: string): Promise<void> {
    const c = this.credentials;
    this.log.info(`joining through the Meeting SDK: app ${c.sdk_key}, ${c.obf_token ? 'with an OBF token' : c.zak ? 'with a ZAK (role 1)' : 'signature only'}`);
    await this.page.waitForFunction('window.botSdk && window.botSdk.state().phase !== "loading"', { timeout: 30_000 });
    await this.page.evaluate(
      (p: Record<string, unknown>) => (window as unknown as { botSdk: { join(p: Record<string, unknown>): void } }).botSdk.join(p),
      {
        meetingNumber: c.meeting_number,
        userName: botName,
        passWord: c.passcode,
        signature: c.signature,
        obfToken: c.obf_token,
        zak: c.zak,
        leaveUrl: 'about:blank',
        defaultView: defaultViewOf(this.options.recordingMode),
      },
    );
  }

  /**
   * While the OBF token's user is absent: a new page (the SDK starts once per page), fresh credentials when
   * they can be had (a token of the request is the only one), and the join again.
   */
  private async joinAgain(): Promise<void> {
    if (this.session.first.renewable) {
      const answer = await this.session.renew();
      if (!answer.ok) {
        this.renewalRefused = answer.refusal;
        return;
      }
      if (answer.credentials.sdk === null) {
        this.renewalRefused = { error_code: 'CANNOT_GET_JWT_TOKEN', message: 'The service no longer signs this join.' };
        return;
      }
      this.credentials = answer.credentials.sdk;
    }
    this.log.info('the OBF token’s user is not in the meeting yet: joining again');
    await this.page.goto(this.hostUrl, { waitUntil: 'domcontentloaded', timeout: 30_000 });
    await this.join(this.options.botName);
  }

  async prepareCall(): Promise<void> {
    // the Client View opens nothing the driver must read: the state comes from the SDK's events
  }

  /** The Client View's layout is chosen when it starts (init `defaultView`). */
  async setLayout(): Promise<void> {}

  async requestRecording(): Promise<void> {
    await this.page.evaluate('window.botSdk.requestRecording()');
  }

  async leaveCall(timeoutMs = 3000): Promise<boolean> {
    const st = await this.state().catch(() => null);
    if (st?.phase !== 'in_call') return false;
    return (await Promise.race([
      this.page.evaluate('window.botSdk.leave()') as Promise<boolean>,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
    ])) as boolean;
  }

  async redactedHtml(): Promise<string> {
    // the page is the bot's own; what it shows of the meeting is the SDK's, and names are left out
    const st = await this.state().catch(() => null);
    return `<!-- vc Meeting SDK page: phase ${st?.phase ?? 'unknown'}, error ${st?.error ? st.error.code : 'none'} -->`;
  }
}
