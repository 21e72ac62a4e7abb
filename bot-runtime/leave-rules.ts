/**
 * Automatic leave, as pure functions of timestamps and observations (no clock, no I/O).
 *
 * The run loop feeds one observation per tick to `observe`, which keeps the clocks, then asks
 * `decideLeave` whether the bot should leave now. All times are milliseconds; timeouts are the job's
 * seconds.
 */
import type { Platform, TimeoutConfig } from '../contract/bot-contract';

/** Where the bot is in the meeting, as far as leave rules care. */
export type Phase =
  | 'joining' // navigating, pre-join screen, clicking join
  | 'waiting_for_host' // vc: the meeting has not started
  | 'waiting_for_user' // vc: the OBF token's user is not in the meeting (the platform refuses; the bot joins again every 30 s)
  | 'lobby' // waiting room: waiting for a host to admit or deny
  | 'in_call'; // admitted

/** The service's own cap when max_recording_duration is null: 12 hours. */
export const SERVICE_MAX_RECORDING_SECONDS = 12 * 3600;

export interface Observation {
  readonly now: number;
  readonly phase: Phase;
  /** participants that count (not the bot, not an ignored name); only meaningful in the call */
  readonly attendees: number;
  /** sound on the captured meeting audio since the previous observation; null: not measured (no capture yet) */
  readonly sound: boolean | null;
  /** when the recorder started (epoch ms), null before; a pause does not stop the recording clock */
  readonly recordingStartedAt: number | null;
  /** vc: recording permission requested and not answered yet */
  readonly awaitingPermission: boolean;
}

export interface LeaveClocks {
  /** first moment the bot had to wait (host absent or lobby); never reset */
  readonly waitingSince: number | null;
  /** total milliseconds spent waiting, up to the last observation */
  readonly waitedMs: number;
  readonly lastObservedAt: number | null;
  readonly lastPhase: Phase | null;
  readonly inCallSince: number | null;
  readonly recordingSince: number | null;
  /** in the call with no attendee since then; null while attendees are present or before the call */
  readonly aloneSince: number | null;
  /** attendees present and no sound since then; null while there is sound, nobody to hear, or no measurement */
  readonly silentSince: number | null;
  /** vc: the recording-permission request still pending since then */
  readonly permissionPendingSince: number | null;
  /** vc: total milliseconds the permission request was pending, up to the last observation */
  readonly permissionWaitedMs: number;
}

export const initialClocks: LeaveClocks = {
  waitingSince: null,
  waitedMs: 0,
  lastObservedAt: null,
  lastPhase: null,
  inCallSince: null,
  recordingSince: null,
  aloneSince: null,
  silentSince: null,
  permissionPendingSince: null,
  permissionWaitedMs: 0,
};

const isWaiting = (phase: Phase | null) => phase === 'waiting_for_host' || phase === 'lobby' || phase === 'waiting_for_user';

export const observe = (clocks: LeaveClocks, o: Observation): LeaveClocks => {
  const waiting = isWaiting(o.phase);
  const inCall = o.phase === 'in_call';
  const sinceLast = clocks.lastObservedAt !== null ? Math.max(0, o.now - clocks.lastObservedAt) : 0;
  const waitedMs = clocks.waitedMs + (isWaiting(clocks.lastPhase) ? sinceLast : 0);
  return {
    waitingSince: clocks.waitingSince ?? (waiting ? o.now : null),
    waitedMs,
    lastObservedAt: o.now,
    lastPhase: o.phase,
    inCallSince: clocks.inCallSince ?? (inCall ? o.now : null),
    recordingSince: clocks.recordingSince ?? o.recordingStartedAt,
    aloneSince: inCall && o.attendees === 0 ? clocks.aloneSince ?? o.now : null,
    // silence is measured on the recording: it cannot start before the recorder did
    silentSince: inCall && o.attendees > 0 && o.sound === false ? clocks.silentSince ?? Math.max(o.now, o.recordingStartedAt ?? o.now) : null,
    permissionPendingSince: inCall && o.awaitingPermission ? clocks.permissionPendingSince ?? o.now : null,
    permissionWaitedMs: clocks.permissionWaitedMs + (clocks.permissionPendingSince !== null ? sinceLast : 0),
  };
};

export type LeaveReason =
  | 'waiting_room_timeout' // still waiting (host absent, lobby, or the OBF token's user absent) after waiting_room_timeout
  | 'permission_timeout' // vc: recording permission unanswered after waiting_room_timeout
  | 'no_attendees' // tm/mt: alone in the call for no_one_joined_timeout (+ grace)
  | 'no_speaker' // tm/mt: attendees but silence for silence_timeout (+ grace)
  | 'recording_timeout'; // recorded for max_recording_duration or the service's 12 h (every platform)

export type LeaveDecision =
  | { readonly kind: 'stay' }
  /** a condition is met; the bot stays for the grace period and leaves at `leaveAt` unless it clears */
  | { readonly kind: 'grace'; readonly reason: LeaveReason; readonly leaveAt: number }
  | { readonly kind: 'leave'; readonly reason: LeaveReason };

const stay: LeaveDecision = { kind: 'stay' };
const s = (seconds: number) => seconds * 1000;

/**
 * The recording cap in seconds, on every platform: the job's max_recording_duration when it is smaller
 * than the service's 12 h. The spec's "on vc only waiting_room_timeout is used" is about its sequence of
 * waits (waiting room, no one joined, silence); the cap is a hard limit on the recording, which a vc
 * bot keeps too (docs/decisions.md, issue 18): an option accepted is an option delivered.
 */
export const recordingCapSeconds = (t: TimeoutConfig): number =>
  t.max_recording_duration === null ? SERVICE_MAX_RECORDING_SECONDS : Math.min(t.max_recording_duration, SERVICE_MAX_RECORDING_SECONDS);

/**
 * Which rule applies, in order: the recording cap (every platform, no grace), then the waiting room (every
 * platform, no grace: the bot is not in the call yet), the vc permission wait, then on tm/mt only the two
 * in-call conditions, each with the grace period. On vc the job's no_one_joined_timeout, silence_timeout
 * and grace_period are not used (spec).
 */
export const decideLeave = (clocks: LeaveClocks, platform: Platform, t: TimeoutConfig, now: number): LeaveDecision => {
  const cap = recordingCapSeconds(t);
  if (clocks.recordingSince !== null && now - clocks.recordingSince >= s(cap)) return { kind: 'leave', reason: 'recording_timeout' };

  if (isWaiting(clocks.lastPhase) && clocks.waitingSince !== null && now - clocks.waitingSince >= s(t.waiting_room_timeout)) {
    return { kind: 'leave', reason: 'waiting_room_timeout' };
  }
  if (clocks.permissionPendingSince !== null && now - clocks.permissionPendingSince >= s(t.waiting_room_timeout)) {
    return { kind: 'leave', reason: 'permission_timeout' };
  }
  if (platform === 'vc' || clocks.lastPhase !== 'in_call') return stay;

  const conditions: { reason: LeaveReason; metAt: number }[] = [];
  if (clocks.aloneSince !== null) conditions.push({ reason: 'no_attendees', metAt: clocks.aloneSince + s(t.no_one_joined_timeout) });
  if (clocks.silentSince !== null) conditions.push({ reason: 'no_speaker', metAt: clocks.silentSince + s(t.silence_timeout) });
  const met = conditions.filter((c) => now >= c.metAt).sort((a, b) => a.metAt - b.metAt)[0];
  if (!met) return stay;
  const leaveAt = met.metAt + s(t.grace_period);
  return now >= leaveAt ? { kind: 'leave', reason: met.reason } : { kind: 'grace', reason: met.reason, leaveAt };
};

/** Counted milliseconds plus, while still counting, those since the last observation: in tenths of seconds. */
const secondsUpTo = (clocks: LeaveClocks, countedMs: number, stillCounting: boolean, now: number): number => {
  const open = stillCounting && clocks.lastObservedAt !== null ? Math.max(0, now - clocks.lastObservedAt) : 0;
  return Math.round((countedMs + open) / 100) / 10;
};

/** Seconds spent waiting (host absent or lobby), as measured by the clocks up to `now`. */
export const waitingRoomSeconds = (clocks: LeaveClocks, now: number): number => secondsUpTo(clocks, clocks.waitedMs, isWaiting(clocks.lastPhase), now);

/**
 * vc: seconds the recording-permission request was pending, up to `now`: with the waiting room, the
 * "waiting time" a RECORDING_START_TIMEOUT is charged for (spec).
 */
export const permissionWaitSeconds = (clocks: LeaveClocks, now: number): number =>
  secondsUpTo(clocks, clocks.permissionWaitedMs, clocks.permissionPendingSince !== null, now);
