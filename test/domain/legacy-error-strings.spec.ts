import assert from 'node:assert/strict';
import { legacyErrorString, legacyErrorStrings } from '../../src/domain/bot/legacy-error-strings';

describe('legacy error strings (the failed event of the legacy API)', () => {
  it('maps the v2 failures that have a legacy counterpart to it', () => {
    const expected: Record<string, string> = {
      CANNOT_JOIN_MEETING: 'CannotJoinMeeting',
      TIMEOUT_WAITING_TO_START: 'TimeoutWaitingToStart',
      BOT_NOT_ACCEPTED: 'BotNotAccepted',
      BOT_REMOVED_TOO_EARLY: 'BotRemoved',
      EXITING_MEETING_BEFORE_RECORD: 'BotRemoved',
      INVALID_MEETING_URL: 'InvalidMeetingUrl',
      WAITING_FOR_AUTHORIZED_USER_TIMEOUT: 'WaitingForHostTimeout',
      WAITING_FOR_HOST_TIMEOUT: 'WaitingForHostTimeout',
      SDK_AUTH_FAILED: 'VC_SDK_AUTH_FAILED',
    };
    for (const [code, legacy] of Object.entries(expected)) assert.equal(legacyErrorString(code), legacy, code);
  });

  it('maps crashes, system refusals and unknown codes to InternalError', () => {
    for (const code of ['FORCE_KILLED', 'OOM_KILLED', 'SIGTERM', 'GENERAL_ERROR', 'INTERNAL_ERROR', 'INSUFFICIENT_TOKENS', 'STREAMING_SETUP_FAILED', 'SOMETHING_NEW']) {
      assert.equal(legacyErrorString(code), 'InternalError', code);
    }
  });

  it('only ever answers one of the spec\'s eight strings', () => {
    const codes = ['CANNOT_JOIN_MEETING', 'MT_LOGIN_FAILED_TIMEOUT', 'RECORDING_START_TIMEOUT', 'HOST_CLIENT_CANNOT_GRANT_PERMISSION', 'x'];
    for (const code of codes) assert.ok((legacyErrorStrings as readonly string[]).includes(legacyErrorString(code)), code);
  });
});
