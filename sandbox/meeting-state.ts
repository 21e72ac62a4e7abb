/**
 * The state of sandbox meetings and the rules that change it: the meeting core (ids, options, people
 * joining, waiting and leaving, chat, speech, recording permission). No I/O: time comes in as `now`
 * (epoch milliseconds) and ids are passed in, so the rules can be unit-tested. Operations mutate the
 * meeting they are given and throw SandboxError (carrying an HTTP status) when a rule refuses.
 * Beside it: vc organisations and Meeting SDK joins (vc-sdk/sdk-sessions.ts, vc-sdk/sdk-join.ts),
 * organisation-only meetings (identity/organisation-meetings.ts) and what pages and the control API
 * see (meeting-views.ts).
 */
import { organisationOnlyProblem, outsiderRefusal, type JoinIdentity } from './identity/organisation-meetings';
import { displayNameProblem, tmGuestNameProblem } from './tm-guest-name';
import { AUTHORIZED_USER_LEFT, DEFAULT_ORGANISATION, sessionsEndedByDeparture } from './vc-sdk/sdk-sessions';

export type Platform = 'vc' | 'tm' | 'mt';
export const platforms: readonly Platform[] = ['vc', 'tm', 'mt'];
export type ParticipantKind = 'browser' | 'simulated';
export type ParticipantState = 'prejoin' | 'waiting_for_host' | 'lobby' | 'in_call' | 'denied' | 'removed' | 'left';
export type RecordingPermission = 'none' | 'pending' | 'granted' | 'denied';
export type RecordingPolicy = 'ask' | 'grant' | 'deny';

export class SandboxError extends Error {
  constructor(readonly status: 400 | 403 | 404 | 409, message: string) {
    super(message);
    this.name = 'SandboxError';
  }
}

export interface Participant {
  readonly participant_id: string;
  name: string;
  readonly kind: ParticipantKind;
  state: ParticipantState;
  /** page opened (browser) or added (simulated) */
  readonly opened_at: number;
  /** the join button was accepted */
  requested_at: number | null;
  /** entered the call */
  joined_at: number | null;
  left_at: number | null;
  recording_permission: RecordingPermission;
  /** last poll of its page (browser participants) */
  last_seen: number;
  /** why it is no longer waiting or in the call: denied, blocked, lobby_timeout, removed, left, meeting ended, … */
  end_reason: string | null;
  /** replica pages: microphone and camera as the page joined with them (null: not told) */
  microphone: boolean | null;
  camera: boolean | null;
  /** replica pages: the layout the page shows (e.g. Spotlight), null until one is chosen */
  layout: string | null;
  /** the account a signed-in page joined with (replicas with identities); null: a guest */
  signed_in_as: string | null;
  /** vc: the platform user this participant is (a simulated user, or a Meeting SDK join with that user's ZAK) */
  user_id: string | null;
  /** vc: joined through the Meeting SDK on behalf of this user (an OBF token): it leaves when the user does */
  authorized_by: string | null;
  /** vc: the SDK app that signed this participant's join (its name is the meeting's notice banner) */
  sdk_app: { readonly key: string; readonly name: string } | null;
}

export interface ChatMessage {
  readonly participant_id: string;
  readonly sender_name: string;
  readonly text: string;
  readonly at: number;
}

export interface Utterance {
  readonly seq: number;
  readonly participant_id: string;
  readonly name: string;
  readonly text: string;
  readonly audio_url: string;
  readonly started_at: number;
  readonly duration_ms: number;
  /** browser participants whose page started (or could not start) playing it */
  readonly acks: Set<string>;
}

export interface MeetingEvent {
  readonly at: number;
  readonly type: string;
  readonly participant_id?: string;
  readonly detail?: string;
}

/** A replica flavour's name and its own settings (sandbox/replicas.ts); null for the sandbox's own pages. */
export interface ReplicaSpec {
  readonly flavour: string;
  readonly settings: Readonly<Record<string, unknown>>;
}

export interface MeetingOptions {
  readonly platform: Platform;
  readonly lobby?: boolean;
  readonly chat_enabled?: boolean;
  readonly host_present?: boolean;
  readonly recording_permission?: RecordingPolicy;
  readonly replica?: ReplicaSpec;
  /** the platform drops a request to join that nobody answered after this long (Meet: 10 minutes) */
  readonly lobby_timeout_ms?: number;
  /** the platform refuses every request to join, with this reason (Meet's "You can't join this video call") */
  readonly join_wall?: string;
  /** vc: the host starts the meeting by itself this long after it was created (a replica's scenario) */
  readonly host_starts_after_ms?: number;
  /** only signed-in accounts of this organisation (domain) may join; guests are sent to sign in */
  readonly organisation_only?: string | null;
  /** vc: the organisation (account) the meeting belongs to: SDK apps of another one join it only with an OBF token or a ZAK */
  readonly organisation?: string;
  /** vc: the platform user who hosts it (whose ZAK starts it) */
  readonly host_user_id?: string;
}

export interface Meeting {
  readonly meeting_id: string;
  readonly platform: Platform;
  readonly lobby: boolean;
  readonly chat_enabled: boolean;
  host_present: boolean;
  readonly recording_policy: RecordingPolicy;
  readonly replica: ReplicaSpec | null;
  readonly lobby_timeout_ms: number | null;
  readonly join_wall: string | null;
  /** when the host starts the meeting by itself (null: only by a control call) */
  readonly host_starts_at: number | null;
  readonly organisation_only: string | null;
  readonly organisation: string;
  readonly host_user_id: string | null;
  readonly created_at: number;
  ended: boolean;
  ended_at: number | null;
  readonly participants: Map<string, Participant>;
  readonly messages: ChatMessage[];
  utterances: Utterance[];
  next_seq: number;
  readonly events: MeetingEvent[];
}

export const activeStates: readonly ParticipantState[] = ['prejoin', 'waiting_for_host', 'lobby', 'in_call'];
const isActive = (p: Participant) => activeStates.includes(p.state);

export const MAX_CHAT_LENGTH = 4096;

export function meetingIdPattern(platform: Platform): RegExp {
  switch (platform) {
    case 'vc':
      return /^\d{9,11}$/;
    case 'tm':
      return /^[A-Za-z0-9_-]{1,128}$/;
    case 'mt':
      return /^[a-z]{3}-[a-z]{4}-[a-z]{3}$/;
  }
}

/** A fresh meeting id in the platform's shape; `random(n)` returns an integer in [0, n). */
export function newMeetingId(platform: Platform, random: (n: number) => number): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(random(10))).join('');
  const letters = (n: number, alphabet: string) => Array.from({ length: n }, () => alphabet[random(alphabet.length)]).join('');
  switch (platform) {
    case 'vc':
      return String(1 + random(9)) + digits(8 + random(3)); // 9 to 11 digits, no leading zero
    case 'tm':
      return `${digits(4)}_${letters(20, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
    case 'mt': {
      const az = 'abcdefghijklmnopqrstuvwxyz';
      return `${letters(3, az)}-${letters(4, az)}-${letters(3, az)}`;
    }
  }
}

export function parseMeetingOptions(body: unknown): MeetingOptions {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SandboxError(400, 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (!platforms.includes(b.platform as Platform)) throw new SandboxError(400, 'platform must be one of vc, tm, mt');
  for (const key of ['lobby', 'chat_enabled', 'host_present'] as const) {
    if (b[key] !== undefined && typeof b[key] !== 'boolean') throw new SandboxError(400, `${key} must be a boolean`);
  }
  for (const key of ['organisation', 'host_user_id'] as const) {
    if (b[key] !== undefined && (typeof b[key] !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(b[key] as string))) throw new SandboxError(400, `${key} must be 1 to 64 letters, digits, '.', '_' or '-'`);
  }
  const policy = b.recording_permission;
  if (policy !== undefined && policy !== 'ask' && policy !== 'grant' && policy !== 'deny') {
    throw new SandboxError(400, 'recording_permission must be one of ask, grant, deny');
  }
  const org = b.organisation_only;
  const orgProblem = organisationOnlyProblem(org);
  if (orgProblem) throw new SandboxError(400, orgProblem);
  return {
    platform: b.platform as Platform,
    organisation_only: (org as string | undefined) ?? null,
    lobby: b.lobby as boolean | undefined,
    chat_enabled: b.chat_enabled as boolean | undefined,
    host_present: b.host_present as boolean | undefined,
    recording_permission: policy as RecordingPolicy | undefined,
    organisation: b.organisation as string | undefined,
    host_user_id: b.host_user_id as string | undefined,
  };
}

export function createMeeting(meetingId: string, options: MeetingOptions, now: number): Meeting {
  const meeting: Meeting = {
    meeting_id: meetingId,
    platform: options.platform,
    lobby: options.lobby ?? true,
    chat_enabled: options.chat_enabled ?? true,
    host_present: options.host_present ?? true,
    recording_policy: options.recording_permission ?? 'ask',
    replica: options.replica ?? null,
    lobby_timeout_ms: options.lobby_timeout_ms ?? null,
    join_wall: options.join_wall ?? null,
    host_starts_at: options.host_starts_after_ms === undefined ? null : now + options.host_starts_after_ms,
    organisation_only: options.organisation_only ?? null,
    organisation: options.organisation ?? DEFAULT_ORGANISATION,
    host_user_id: options.host_user_id ?? null,
    created_at: now,
    ended: false,
    ended_at: null,
    participants: new Map(),
    messages: [],
    utterances: [],
    next_seq: 1,
    events: [],
  };
  const replica = meeting.replica ? ` replica=${meeting.replica.flavour} ${JSON.stringify(meeting.replica.settings)}` : '';
  log(meeting, now, 'created', undefined, `lobby=${meeting.lobby} chat_enabled=${meeting.chat_enabled} host_present=${meeting.host_present} recording_permission=${meeting.recording_policy}${replica}`);
  return meeting;
}

/** Records what happened (the control view's `events`); for this module and the rule modules beside it. */
export function log(meeting: Meeting, at: number, type: string, participantId?: string, detail?: string): void {
  meeting.events.push({ at, type, ...(participantId ? { participant_id: participantId } : {}), ...(detail !== undefined ? { detail } : {}) });
}

export function notEnded(meeting: Meeting): void {
  if (meeting.ended) throw new SandboxError(409, 'the meeting has ended');
}

export function participant(meeting: Meeting, participantId: string): Participant {
  const p = meeting.participants.get(participantId);
  if (!p) throw new SandboxError(404, `no participant ${participantId} in this meeting`);
  return p;
}

/** A participant's new state (and, once gone, when and why); a vc user leaving ends the SDK sessions on their behalf. */
export function setState(meeting: Meeting, p: Participant, state: ParticipantState, now: number, detail?: string): void {
  p.state = state;
  if (state === 'in_call' && p.joined_at === null) p.joined_at = now;
  if (!activeStates.includes(state) && p.left_at === null) {
    p.left_at = now;
    p.end_reason = detail ?? state;
  }
  log(meeting, now, state, p.participant_id, detail);
  if (p.user_id === null || activeStates.includes(state)) return;
  for (const q of sessionsEndedByDeparture(meeting, p.user_id, isActive)) setState(meeting, q, 'removed', now, AUTHORIZED_USER_LEFT);
}


/** A browser opened the meeting page: it is a participant in `prejoin` until it joins. */
export function openPage(meeting: Meeting, participantId: string, now: number): Participant {
  const p: Participant = {
    participant_id: participantId,
    name: '',
    kind: 'browser',
    state: 'prejoin',
    opened_at: now,
    requested_at: null,
    joined_at: null,
    left_at: null,
    recording_permission: 'none',
    last_seen: now,
    end_reason: null,
    microphone: null,
    camera: null,
    layout: null,
    signed_in_as: null,
    user_id: null,
    authorized_by: null,
    sdk_app: null,
  };
  meeting.participants.set(participantId, p);
  log(meeting, now, 'page_opened', participantId);
  return p;
}

/** Microphone and camera a replica page joins with. */
export interface JoinMedia {
  readonly microphone?: unknown;
  readonly camera?: unknown;
}

/**
 * The join button: checks who joins (an organisation-only meeting takes its members only) and the name,
 * then the meeting's wall (the request is refused at once), waiting for the host (vc), lobby or straight
 * into the call.
 */
export function requestJoin(meeting: Meeting, participantId: string, name: unknown, now: number, media: JoinMedia = {}, identity: JoinIdentity | null = null): Participant {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (p.state !== 'prejoin') throw new SandboxError(409, `cannot join from state ${p.state}`);
  const outsider = outsiderRefusal(meeting.organisation_only, identity);
  if (outsider) {
    log(meeting, now, 'join_refused', participantId, `${identity ? identity.email : 'a guest'}: only members of ${meeting.organisation_only}`);
    throw new SandboxError(403, outsider);
  }
  const raw = identity ? identity.display_name : typeof name === 'string' ? name : '';
  const problem = identity ? null : displayNameProblem(raw) ?? (meeting.platform === 'tm' ? tmGuestNameProblem(raw) : null);
  if (problem) {
    log(meeting, now, 'join_refused', participantId, `${JSON.stringify(raw)}: ${problem}`);
    throw new SandboxError(400, `This name cannot be used: ${problem}`);
  }
  p.name = raw;
  p.signed_in_as = identity?.email ?? null;
  p.requested_at = now;
  p.last_seen = now;
  p.microphone = typeof media.microphone === 'boolean' ? media.microphone : null;
  p.camera = typeof media.camera === 'boolean' ? media.camera : null;
  log(meeting, now, 'join_requested', participantId, identity ? `${raw} (signed in as ${identity.email})` : raw);
  if (meeting.join_wall !== null) setState(meeting, p, 'denied', now, 'blocked');
  else if (meeting.platform === 'vc' && !meeting.host_present) setState(meeting, p, 'waiting_for_host', now);
  else setState(meeting, p, meeting.lobby ? 'lobby' : 'in_call', now);
  return p;
}

/** vc: the host arrives; everyone waiting for the host moves on to the lobby (or the call). */
export function hostStart(meeting: Meeting, now: number): void {
  notEnded(meeting);
  if (meeting.host_present) return;
  meeting.host_present = true;
  log(meeting, now, 'host_started');
  for (const p of meeting.participants.values()) {
    if (p.state === 'waiting_for_host') setState(meeting, p, meeting.lobby ? 'lobby' : 'in_call', now);
  }
}

/** The host starts the meeting by itself once its time has come (`host_starts_after_ms`). */
export function startHostWhenDue(meeting: Meeting, now: number): void {
  if (!meeting.ended && !meeting.host_present && meeting.host_starts_at !== null && now >= meeting.host_starts_at) hostStart(meeting, now);
}

export function admit(meeting: Meeting, participantId: string, now: number): Participant {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (p.state !== 'lobby') throw new SandboxError(409, `only a participant in the lobby can be admitted (state: ${p.state})`);
  setState(meeting, p, 'in_call', now, 'admitted');
  return p;
}

export function deny(meeting: Meeting, participantId: string, now: number): Participant {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (p.state !== 'lobby') throw new SandboxError(409, `only a participant in the lobby can be denied (state: ${p.state})`);
  setState(meeting, p, 'denied', now);
  return p;
}

export function remove(meeting: Meeting, participantId: string, now: number): Participant {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (!['waiting_for_host', 'lobby', 'in_call'].includes(p.state)) {
    throw new SandboxError(409, `only a waiting or present participant can be removed (state: ${p.state})`);
  }
  setState(meeting, p, 'removed', now);
  return p;
}

/** The participant leaves (leave button, page closed, simulated participant leaves). No-op once gone. */
export function leave(meeting: Meeting, participantId: string, now: number, reason = 'left'): Participant {
  const p = participant(meeting, participantId);
  if (isActive(p)) setState(meeting, p, 'left', now, reason);
  return p;
}

export function touch(meeting: Meeting, participantId: string, now: number): Participant {
  const p = participant(meeting, participantId);
  p.last_seen = now;
  return p;
}

/** Requests to join older than the meeting's lobby timeout are dropped (`left`, reason lobby_timeout). */
export function expireLobby(meeting: Meeting, now: number): Participant[] {
  const timeout = meeting.lobby_timeout_ms;
  if (timeout === null) return [];
  const expired = [...meeting.participants.values()].filter((p) => p.state === 'lobby' && p.requested_at !== null && now - p.requested_at >= timeout);
  for (const p of expired) setState(meeting, p, 'left', now, 'lobby_timeout');
  return expired;
}

/** A replica page reports the layout it shows (in the call). */
export function setLayout(meeting: Meeting, participantId: string, layout: unknown, now: number): Participant {
  const p = participant(meeting, participantId);
  if (p.state !== 'in_call') throw new SandboxError(409, `only a participant in the call has a layout (state: ${p.state})`);
  if (typeof layout !== 'string' || !/^[A-Za-z ]{1,40}$/.test(layout)) throw new SandboxError(400, 'layout must be a name of letters and spaces');
  p.layout = layout;
  log(meeting, now, 'layout', participantId, layout);
  return p;
}

/** A replica page reports its microphone and camera in the call (a client that changes them on its own, Zoom's on joining audio). */
export function setMedia(meeting: Meeting, participantId: string, media: JoinMedia, now: number): Participant {
  const p = participant(meeting, participantId);
  if (p.state !== 'in_call') throw new SandboxError(409, `only a participant in the call has media to change (state: ${p.state})`);
  for (const key of ['microphone', 'camera'] as const) {
    if (media[key] !== undefined && typeof media[key] !== 'boolean') throw new SandboxError(400, `${key} must be a boolean`);
  }
  if (typeof media.microphone === 'boolean') p.microphone = media.microphone;
  if (typeof media.camera === 'boolean') p.camera = media.camera;
  log(meeting, now, 'media', participantId, `microphone=${p.microphone} camera=${p.camera}`);
  return p;
}

/** Browser participants whose page has not polled for more than `staleMs` become `left`. */
export function sweepStale(meeting: Meeting, now: number, staleMs: number): Participant[] {
  const gone: Participant[] = [];
  for (const p of meeting.participants.values()) {
    if (p.kind === 'browser' && isActive(p) && now - p.last_seen > staleMs) {
      setState(meeting, p, 'left', now, 'page stopped polling');
      gone.push(p);
    }
  }
  return gone;
}

export function addSimulated(meeting: Meeting, participantId: string, name: unknown, now: number, userId: string | null = null): Participant {
  notEnded(meeting);
  const raw = typeof name === 'string' ? name : '';
  const problem = displayNameProblem(raw);
  if (problem) throw new SandboxError(400, `name: ${problem}`);
  const p: Participant = {
    participant_id: participantId,
    name: raw,
    kind: 'simulated',
    state: 'prejoin',
    opened_at: now,
    requested_at: now,
    joined_at: null,
    left_at: null,
    recording_permission: 'none',
    last_seen: now,
    end_reason: null,
    microphone: null,
    camera: null,
    layout: null,
    signed_in_as: null,
    user_id: userId,
    authorized_by: null,
    sdk_app: null,
  };
  meeting.participants.set(participantId, p);
  setState(meeting, p, 'in_call', now, `simulated ${raw}${userId ? ` (user ${userId})` : ''}`);
  return p;
}

export function simulated(meeting: Meeting, participantId: string): Participant {
  const p = participant(meeting, participantId);
  if (p.kind !== 'simulated') throw new SandboxError(400, 'not a simulated participant');
  return p;
}

export function postChat(meeting: Meeting, participantId: string, text: unknown, now: number): ChatMessage {
  const p = participant(meeting, participantId);
  notEnded(meeting);
  if (p.state !== 'in_call') throw new SandboxError(409, `only a participant in the call can post (state: ${p.state})`);
  if (!meeting.chat_enabled) throw new SandboxError(403, 'chat is disabled in this meeting');
  if (typeof text !== 'string' || text.trim().length === 0) throw new SandboxError(400, 'text must be a non-empty string');
  if (text.length > MAX_CHAT_LENGTH) throw new SandboxError(400, `text is longer than ${MAX_CHAT_LENGTH} characters`);
  const message: ChatMessage = { participant_id: p.participant_id, sender_name: p.name, text, at: now };
  meeting.messages.push(message);
  log(meeting, now, 'chat', p.participant_id, text);
  return message;
}

/** The meeting ends: everyone still there (or waiting) leaves. */
export function endMeeting(meeting: Meeting, now: number): void {
  if (meeting.ended) return;
  meeting.ended = true;
  meeting.ended_at = now;
  meeting.utterances = [];
  log(meeting, now, 'ended');
  for (const p of meeting.participants.values()) if (isActive(p)) setState(meeting, p, 'left', now, 'meeting ended');
}
