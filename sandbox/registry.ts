/** All meetings of one running sandbox, their URLs, and the sweep that marks silent pages as left. */
import { randomInt, randomUUID } from 'node:crypto';
import {
  createMeeting,
  expireLobby,
  meetingIdPattern,
  newMeetingId,
  SandboxError,
  startHostWhenDue,
  sweepStale,
  type Meeting,
  type MeetingOptions,
  type Platform,
} from './meeting-state';
import { pruneUtterances } from './meeting-speech';
import { ParticipantMedia } from './participant-media';
import { replicaFlavour } from './replicas';
import type { SpeakingVoice } from './tts';
import { VcIdentity } from './vc-sdk/vc-identity';

export interface RegistryOptions {
  /** base URL of a platform's pages, e.g. https://vc.localhost:8443 */
  readonly originFor: (platform: Platform) => string;
  /** browser participants silent for longer become `left` (default 10 s) */
  readonly staleAfterMs?: number;
  readonly now?: () => number;
}

export function meetingPath(platform: Platform, meetingId: string): string {
  switch (platform) {
    case 'vc':
      return `/j/${meetingId}`;
    case 'tm':
      return `/l/meetup-join/${meetingId}`;
    case 'mt':
      return `/${meetingId}`;
  }
}

export class MeetingRegistry {
  readonly meetings = new Map<string, Meeting>();
  /** speech engine and voice of each simulated participant */
  readonly voices = new Map<string, SpeakingVoice>();
  /** what browser participants' microphones and cameras sent */
  readonly media = new ParticipantMedia();
  /** vc: organisations' SDK apps, users and the tokens issued to them (vc-sdk/) */
  readonly vc = new VcIdentity();
  readonly now: () => number;
  readonly staleAfterMs: number;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly options: RegistryOptions) {
    this.now = options.now ?? Date.now;
    this.staleAfterMs = options.staleAfterMs ?? 10_000;
  }

  urlFor(platform: Platform, meetingId: string): string {
    return this.options.originFor(platform) + meetingPath(platform, meetingId);
  }

  /** The meeting's URL: the sandbox host's, or the real platform's for a replica meeting. */
  urlOf(meeting: Meeting): string {
    return meeting.replica ? replicaFlavour(meeting.replica.flavour).meetingUrl(meeting.meeting_id, meeting.replica.settings) : this.urlFor(meeting.platform, meeting.meeting_id);
  }

  create(options: MeetingOptions, requestedId?: unknown): Meeting {
    let id: string;
    if (requestedId !== undefined) {
      if (typeof requestedId !== 'string' || !meetingIdPattern(options.platform).test(requestedId)) {
        throw new SandboxError(400, `meeting_id does not have the shape of a ${options.platform} meeting id`);
      }
      if (this.meetings.has(requestedId)) throw new SandboxError(409, `meeting ${requestedId} exists`);
      id = requestedId;
    } else {
      do id = newMeetingId(options.platform, randomInt);
      while (this.meetings.has(id));
    }
    const meeting = createMeeting(id, options, this.now());
    this.meetings.set(id, meeting);
    return meeting;
  }

  get(meetingId: string, platform?: Platform): Meeting {
    const meeting = this.meetings.get(meetingId);
    if (!meeting || (platform && meeting.platform !== platform)) throw new SandboxError(404, `no meeting ${meetingId}`);
    return meeting;
  }

  /** The meeting a page URL names: of this platform, and served by this replica flavour (null: the sandbox's own pages). */
  find(meetingId: string, platform: Platform, flavour: string | null = null): Meeting | null {
    const meeting = this.meetings.get(meetingId);
    return meeting && meeting.platform === platform && (meeting.replica?.flavour ?? null) === flavour ? meeting : null;
  }

  /** vc: whether a Meeting SDK join's passcode opens the meeting (its replica decides; the sandbox's own pages have none) */
  sdkPasscodeOk(meeting: Meeting, passWord: unknown): boolean {
    const check = meeting.replica ? replicaFlavour(meeting.replica.flavour).sdkPasscodeOk : undefined;
    return check ? check(meeting, passWord) : true;
  }

  newParticipantId(): string {
    return randomUUID();
  }

  sweep(): void {
    const now = this.now();
    for (const meeting of this.meetings.values()) {
      if (meeting.ended) continue;
      startHostWhenDue(meeting, now);
      sweepStale(meeting, now, this.staleAfterMs);
      expireLobby(meeting, now);
      pruneUtterances(meeting, now);
    }
  }

  startSweeping(everyMs = 1000): void {
    this.sweeper ??= setInterval(() => this.sweep(), everyMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
