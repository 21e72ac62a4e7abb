import assert from 'node:assert/strict';
import type { Platform } from '../../contract/bot-contract';
import { endVerdict, type EndCause, type EndContext } from '../../bot-runtime/end-codes';
import type { Phase } from '../../bot-runtime/leave-rules';

const ctx = (platform: Platform, phase: Phase, recordingStarted: boolean): EndContext => ({ platform, phase, recordingStarted });
const code = (cause: EndCause, c: EndContext) => {
  const v = endVerdict(cause, c);
  return `${v.outcome} ${v.error_code}`;
};

describe('bot-runtime end codes', () => {
  const recording = ctx('tm', 'in_call', true);
  const vcRecording = ctx('vc', 'in_call', true);

  it('normal ends while recording are completed with the spec end reason', () => {
    assert.equal(code({ kind: 'leave_requested' }, recording), 'completed API_REQUEST');
    assert.equal(code({ kind: 'removed' }, recording), 'completed BOT_REMOVED');
    assert.equal(code({ kind: 'auto_leave', reason: 'no_attendees' }, recording), 'completed NO_ATTENDEES');
    assert.equal(code({ kind: 'auto_leave', reason: 'no_speaker' }, recording), 'completed NO_SPEAKER');
    assert.equal(code({ kind: 'auto_leave', reason: 'recording_timeout' }, vcRecording), 'completed RECORDING_TIMEOUT');
  });

  it('the meeting ending while recording is a normal end (BOT_REMOVED: everyone is sent out)', () => {
    const v = endVerdict({ kind: 'meeting_ended' }, vcRecording);
    assert.deepEqual([v.outcome, v.error_code], ['completed', 'BOT_REMOVED']);
    assert.match(v.error_message, /meeting ended/);
  });

  it('a leave request before recording is EXITING_MEETING_BEFORE_RECORD, in any phase', () => {
    for (const phase of ['joining', 'waiting_for_host', 'lobby', 'in_call'] as const) {
      assert.equal(code({ kind: 'leave_requested' }, ctx('vc', phase, false)), 'failed EXITING_MEETING_BEFORE_RECORD', phase);
    }
  });

  it('removed from the call before recording anything (vc awaiting permission) is BOT_REMOVED_TOO_EARLY, not a leave', () => {
    assert.equal(code({ kind: 'removed' }, ctx('vc', 'in_call', false)), 'failed BOT_REMOVED_TOO_EARLY');
  });

  it('the automatic leaves are normal ends with their own codes (the service decides about a bot never admitted)', () => {
    const inCallNotRecording = ctx('tm', 'in_call', false);
    assert.equal(code({ kind: 'auto_leave', reason: 'no_attendees' }, inCallNotRecording), 'completed NO_ATTENDEES');
    assert.equal(code({ kind: 'auto_leave', reason: 'no_speaker' }, inCallNotRecording), 'completed NO_SPEAKER');
  });

  it('the meeting ending before admission is the spec\'s pre-recording stop on every platform; on vc, once admitted and awaiting the recording permission, MEETING_ENDED_PREMATURELY', () => {
    for (const phase of ['joining', 'waiting_for_host', 'lobby'] as const) {
      assert.equal(code({ kind: 'meeting_ended' }, ctx('vc', phase, false)), 'failed EXITING_MEETING_BEFORE_RECORD', phase);
    }
    assert.equal(code({ kind: 'meeting_ended' }, ctx('vc', 'in_call', false)), 'failed MEETING_ENDED_PREMATURELY');
    assert.equal(code({ kind: 'meeting_ended' }, ctx('tm', 'lobby', false)), 'failed EXITING_MEETING_BEFORE_RECORD');
    assert.equal(code({ kind: 'meeting_ended' }, ctx('mt', 'lobby', false)), 'failed EXITING_MEETING_BEFORE_RECORD');
  });

  it('refusals and removal from the waiting room are BOT_NOT_ACCEPTED', () => {
    assert.equal(code({ kind: 'denied' }, ctx('mt', 'lobby', false)), 'failed BOT_NOT_ACCEPTED');
    assert.equal(code({ kind: 'removed' }, ctx('tm', 'lobby', false)), 'failed BOT_NOT_ACCEPTED');
    const refusedName = endVerdict({ kind: 'denied', message: 'The platform refused the name: This name cannot be used' }, ctx('tm', 'joining', false));
    assert.deepEqual([refusedName.outcome, refusedName.error_code, refusedName.error_message], ['failed', 'BOT_NOT_ACCEPTED', 'The platform refused the name: This name cannot be used']);
  });

  it('the waiting-room timeout: WAITING_FOR_HOST_TIMEOUT while the vc host is absent, TIMEOUT_WAITING_TO_START in a lobby', () => {
    const timeout: EndCause = { kind: 'auto_leave', reason: 'waiting_room_timeout' };
    assert.equal(code(timeout, ctx('vc', 'waiting_for_host', false)), 'failed WAITING_FOR_HOST_TIMEOUT');
    assert.equal(code(timeout, ctx('vc', 'lobby', false)), 'failed TIMEOUT_WAITING_TO_START');
    assert.equal(code(timeout, ctx('tm', 'lobby', false)), 'failed TIMEOUT_WAITING_TO_START');
    assert.equal(code(timeout, ctx('mt', 'lobby', false)), 'failed TIMEOUT_WAITING_TO_START');
  });

  it('vc recording permission: refused -> RECORDING_RIGHTS_NOT_GRANTED, unanswered -> RECORDING_START_TIMEOUT', () => {
    assert.equal(code({ kind: 'permission_denied' }, ctx('vc', 'in_call', false)), 'failed RECORDING_RIGHTS_NOT_GRANTED');
    assert.equal(code({ kind: 'auto_leave', reason: 'permission_timeout' }, ctx('vc', 'in_call', false)), 'failed RECORDING_START_TIMEOUT');
  });

  it('joining problems and crashes', () => {
    assert.equal(code({ kind: 'invalid_url', message: 'x' }, ctx('tm', 'joining', false)), 'failed INVALID_MEETING_URL');
    assert.equal(code({ kind: 'cannot_join', message: 'x' }, ctx('tm', 'joining', false)), 'failed CANNOT_JOIN_MEETING');
    assert.equal(code({ kind: 'internal_error', message: 'x' }, recording), 'failed INTERNAL_ERROR');
    assert.equal(code({ kind: 'terminated', signal: 'SIGTERM' }, recording), 'failed SIGTERM');
  });

  it('keeps the cause message', () => {
    assert.equal(endVerdict({ kind: 'cannot_join', message: 'The meeting does not exist.' }, ctx('mt', 'joining', false)).error_message, 'The meeting does not exist.');
  });
});

describe('bot-runtime end codes of real platforms', () => {
  it('a sign-in wall is MT_LOGIN_REQUIRED on mt, LOGIN_REQUIRED elsewhere, with the page\'s words', () => {
    const v = endVerdict({ kind: 'login_required', message: 'The meeting lets only signed-in users in: "Sign in".' }, ctx('mt', 'joining', false));
    assert.deepEqual([v.outcome, v.error_code], ['failed', 'MT_LOGIN_REQUIRED']);
    assert.match(v.error_message, /Sign in/);
    assert.equal(code({ kind: 'login_required', message: 'x' }, ctx('tm', 'joining', false)), 'failed LOGIN_REQUIRED');
  });

  it('the platform blocking the bot is BOT_NOT_ACCEPTED with its reason', () => {
    const v = endVerdict({ kind: 'denied', message: 'The platform does not let the bot in: "You can\u2019t join this video call".' }, ctx('mt', 'joining', false));
    assert.deepEqual([v.outcome, v.error_code], ['failed', 'BOT_NOT_ACCEPTED']);
    assert.match(v.error_message, /can.t join this video call/);
  });

  it("the platform's own lobby timeout is TIMEOUT_WAITING_TO_START; waiting for a host off vc too", () => {
    assert.equal(code({ kind: 'lobby_expired', message: 'x' }, ctx('mt', 'lobby', false)), 'failed TIMEOUT_WAITING_TO_START');
    assert.equal(code({ kind: 'auto_leave', reason: 'waiting_room_timeout' }, ctx('mt', 'waiting_for_host', false)), 'failed TIMEOUT_WAITING_TO_START');
    assert.equal(code({ kind: 'auto_leave', reason: 'waiting_room_timeout' }, ctx('vc', 'waiting_for_host', false)), 'failed WAITING_FOR_HOST_TIMEOUT');
  });

  it('a page the driver does not recognise: CANNOT_JOIN_MEETING before the call, INTERNAL_ERROR in it', () => {
    assert.equal(code({ kind: 'unrecognised_page', message: 'x' }, ctx('mt', 'joining', false)), 'failed CANNOT_JOIN_MEETING');
    assert.equal(code({ kind: 'unrecognised_page', message: 'x' }, ctx('mt', 'lobby', false)), 'failed CANNOT_JOIN_MEETING');
    assert.equal(code({ kind: 'unrecognised_page', message: 'x' }, ctx('mt', 'in_call', true)), 'failed INTERNAL_ERROR');
  });
});
