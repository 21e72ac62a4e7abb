export const activeStatuses = [
  'queued',
  'joining_call',
  'in_waiting_room',
  'in_call_not_recording',
  'in_call_recording',
  'recording_paused',
  'recording_resumed',
] as const;
/**
 * `cancelled` is beyond the spec's list of statuses but named by its transitions ("scheduled bot not yet
 * started -> cancelled"): a scheduled bot its team ended before its time (docs/decisions.md, issue 18).
 */
export const terminalStatuses = ['completed', 'failed', 'cancelled'] as const;

export type ActiveStatus = (typeof activeStatuses)[number];
export type TerminalStatus = (typeof terminalStatuses)[number];
/**
 * A scheduled bot before its time: nothing reserved, nothing queued, no process. Beyond the spec's list of
 * statuses (docs/decisions.md); it becomes `queued` at its time, ends `cancelled` (DELETE, leave, its
 * calendar event cancelled) or `failed` (refused at its time).
 */
export type ScheduledStatus = 'scheduled';
export type BotStatus = ScheduledStatus | ActiveStatus | TerminalStatus;

/** Statuses a running bot reports itself (queued is set at creation, terminal ones by the end). */
export const reportableStatuses = activeStatuses.filter((s) => s !== 'queued') as Exclude<ActiveStatus, 'queued'>[];
export type ReportableStatus = Exclude<ActiveStatus, 'queued'>;

export const isTerminal = (status: BotStatus): status is TerminalStatus =>
  (terminalStatuses as readonly string[]).includes(status);

/** The spec: chat only in the four in-call statuses. */
export const chatAllowedStatuses: readonly BotStatus[] = [
  'in_call_not_recording',
  'in_call_recording',
  'recording_paused',
  'recording_resumed',
];

/** Admitted and still in the call: where chat is allowed, and what "before admission" is not. */
export const isInCall = (status: BotStatus): boolean => chatAllowedStatuses.includes(status);

export const hasStartedRecording = (status: BotStatus): boolean =>
  status === 'in_call_recording' || status === 'recording_paused' || status === 'recording_resumed';

/**
 * Forward moves a running bot may report. The spec's table only covers leave; these follow the order
 * in which a participant joins a call (decided in docs/decisions.md). A bot can skip the waiting room
 * (no lobby) and can start recording without an in_call_not_recording step.
 */
const allowedNext: Record<ActiveStatus, readonly ActiveStatus[]> = {
  queued: ['joining_call'],
  joining_call: ['in_waiting_room', 'in_call_not_recording', 'in_call_recording'],
  in_waiting_room: ['in_call_not_recording', 'in_call_recording'],
  in_call_not_recording: ['in_call_recording'],
  in_call_recording: ['recording_paused'],
  recording_paused: ['recording_resumed'],
  recording_resumed: ['recording_paused'],
};

export const canMoveTo = (from: BotStatus, to: ActiveStatus): boolean =>
  from !== 'scheduled' && !isTerminal(from) && allowedNext[from].includes(to);
