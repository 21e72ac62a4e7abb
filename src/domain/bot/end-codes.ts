/** Error codes of the spec's "Bot error codes (v2)" table, grouped as the spec groups them. */
export const normalEndCodes = ['BOT_REMOVED', 'NO_ATTENDEES', 'NO_SPEAKER', 'RECORDING_TIMEOUT', 'API_REQUEST'] as const;

export const crashCodes = ['OOM_KILLED', 'SIGTERM', 'FORCE_KILLED', 'GENERAL_ERROR'] as const;

export const EXITING_MEETING_BEFORE_RECORD = 'EXITING_MEETING_BEFORE_RECORD';

/**
 * The status a failure ends a bot in: a scheduled bot that had not started and stops by the pre-recording
 * stop (its team cancelled it: DELETE, leave, its calendar event) is `cancelled`; anything else `failed`.
 */
export const failedStatus = (statusBefore: string, errorCode: string): 'failed' | 'cancelled' =>
  statusBefore === 'scheduled' && errorCode === EXITING_MEETING_BEFORE_RECORD ? 'cancelled' : 'failed';

/** A transcription that gave no transcript; the bot itself stays completed. */
export const TRANSCRIPTION_FAILED = 'TRANSCRIPTION_FAILED';

export type NormalEndCode = (typeof normalEndCodes)[number];

export const isNormalEnd = (code: string): code is NormalEndCode =>
  (normalEndCodes as readonly string[]).includes(code);
