import assert from 'node:assert/strict';
import { legacyEndReason } from '../../src/domain/bot/legacy-end-reasons';

describe('legacy recording end reasons (the spec\'s bot_removed, no_attendees, no_speaker, recording_timeout, api_request, meeting_error)', () => {
  it('a normal end: its own reason', () => {
    assert.equal(legacyEndReason('BOT_REMOVED', false), 'bot_removed');
    assert.equal(legacyEndReason('NO_ATTENDEES', false), 'no_attendees');
    assert.equal(legacyEndReason('NO_SPEAKER', false), 'no_speaker');
    assert.equal(legacyEndReason('RECORDING_TIMEOUT', false), 'recording_timeout');
    assert.equal(legacyEndReason('API_REQUEST', true), 'api_request');
  });

  it('a pre-recording stop: api_request when stopped through the API, bot_removed when the meeting ended before admission', () => {
    assert.equal(legacyEndReason('EXITING_MEETING_BEFORE_RECORD', true), 'api_request');
    assert.equal(legacyEndReason('EXITING_MEETING_BEFORE_RECORD', false), 'bot_removed');
  });

  it('removed before it recorded anything: bot_removed; any failure or crash: meeting_error', () => {
    assert.equal(legacyEndReason('BOT_REMOVED_TOO_EARLY', false), 'bot_removed');
    for (const code of ['BOT_NOT_ACCEPTED', 'CANNOT_JOIN_MEETING', 'RECORDING_START_TIMEOUT', 'OOM_KILLED', 'INSUFFICIENT_TOKENS', 'SOMETHING_NEW']) {
      assert.equal(legacyEndReason(code, false), 'meeting_error', code);
    }
  });
});
