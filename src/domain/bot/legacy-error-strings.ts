/**
 * The spec's legacy error strings (the `failed` event's `error`), camel-case, and which v2 error code
 * becomes which. The legacy list is closed, so every v2 failure maps to one of its eight strings.
 */
export const legacyErrorStrings = [
  'CannotJoinMeeting',
  'TimeoutWaitingToStart',
  'BotNotAccepted',
  'BotRemoved',
  'InternalError',
  'InvalidMeetingUrl',
  'WaitingForHostTimeout',
  'VC_SDK_AUTH_FAILED',
] as const;
export type LegacyErrorString = (typeof legacyErrorStrings)[number];

const byV2Code: Readonly<Record<string, LegacyErrorString>> = {
  CANNOT_JOIN_MEETING: 'CannotJoinMeeting',
  UNABLE_JOIN_EXTERNAL_MEETING: 'CannotJoinMeeting',
  MEETING_ENDED_PREMATURELY: 'CannotJoinMeeting',
  LOGIN_REQUIRED: 'CannotJoinMeeting',
  MT_LOGIN_REQUIRED: 'CannotJoinMeeting',
  MT_LOGIN_UNAVAILABLE: 'CannotJoinMeeting',
  MT_LOGIN_FAILED_SAML_REJECTED: 'CannotJoinMeeting',
  MT_LOGIN_FAILED_TIMEOUT: 'CannotJoinMeeting',
  TM_LOGIN_UNAVAILABLE: 'CannotJoinMeeting',
  VC_OBF_TOKEN_ERROR: 'CannotJoinMeeting',
  VC_ACCESS_TOKEN_ERROR: 'CannotJoinMeeting',
  CANNOT_GET_JWT_TOKEN: 'CannotJoinMeeting',
  SET_VC_ID_AND_PWD_TOGETHER: 'CannotJoinMeeting',
  TIMEOUT_WAITING_TO_START: 'TimeoutWaitingToStart',
  RECORDING_START_TIMEOUT: 'TimeoutWaitingToStart',
  BOT_NOT_ACCEPTED: 'BotNotAccepted',
  RECORDING_RIGHTS_NOT_GRANTED: 'BotNotAccepted',
  CANNOT_REQUEST_RECORDING_RIGHT: 'BotNotAccepted',
  HOST_CLIENT_CANNOT_GRANT_PERMISSION: 'BotNotAccepted',
  BOT_REMOVED: 'BotRemoved',
  BOT_REMOVED_TOO_EARLY: 'BotRemoved',
  // Removed through the API (or the meeting ended) before it recorded: the legacy API calls that a removal.
  EXITING_MEETING_BEFORE_RECORD: 'BotRemoved',
  INVALID_MEETING_URL: 'InvalidMeetingUrl',
  WAITING_FOR_HOST_TIMEOUT: 'WaitingForHostTimeout',
  WAITING_FOR_AUTHORIZED_USER_TIMEOUT: 'WaitingForHostTimeout',
  SDK_AUTH_FAILED: 'VC_SDK_AUTH_FAILED',
};

/** Crashes, system refusals and anything not listed are the service's own failure: InternalError. */
export const legacyErrorString = (v2ErrorCode: string): LegacyErrorString => byV2Code[v2ErrorCode] ?? 'InternalError';
