import assert from 'node:assert/strict';
import { chargeForOutcome, type BotFeatures } from '../../src/domain/team/charge-by-outcome';
import { pricePerHour, RESERVATION_PER_BOT, THOUSANDTHS_PER_TOKEN } from '../../src/domain/team/token-prices';

// Prices per hour, in thousandths of a token (DESIGN.md): recording 1000, transcription 250, streaming 100 per direction.
// `streamingDirections`: directions connected for the whole recording (usage.streaming_seconds says how long each was).
interface Used extends BotFeatures {
  readonly streamingDirections: number;
}
const allFeatures: Used = { transcription: true, streamingDirections: 2 };
const recordingOnly: Used = { transcription: false, streamingDirections: 0 };

const charge = (error_code: string, recorded_seconds: number, waiting_room_seconds: number, features: Used): number =>
  chargeForOutcome(
    {
      error_code,
      usage: {
        recorded_seconds,
        waiting_room_seconds,
        streaming_seconds: {
          input: features.streamingDirections >= 2 ? recorded_seconds : 0,
          output: features.streamingDirections >= 1 ? recorded_seconds : 0,
        },
      },
    },
    features,
  );

describe('token charging by outcome (thousandths of a token)', () => {
  describe('the prices', () => {
    it('are those of DESIGN.md, in thousandths; a bot reserves 0.5 token', () => {
      assert.deepEqual({ ...pricePerHour }, { recording: 1000, transcription: 250, streamingPerDirection: 100 });
      assert.equal(THOUSANDTHS_PER_TOKEN, 1000);
      assert.equal(RESERVATION_PER_BOT, 500);
    });
  });

  describe('1. BOT_NOT_ACCEPTED and TIMEOUT_WAITING_TO_START: recording tokens only, for the waiting-room time', () => {
    it('BOT_NOT_ACCEPTED after 1800 s in the waiting room = 500', () => {
      assert.equal(charge('BOT_NOT_ACCEPTED', 0, 1800, recordingOnly), 500);
    });
    it('features do not add to it (transcription and 2 streaming directions still = 500)', () => {
      assert.equal(charge('BOT_NOT_ACCEPTED', 0, 1800, allFeatures), 500);
    });
    it('recorded time does not count, only waiting-room time', () => {
      assert.equal(charge('BOT_NOT_ACCEPTED', 3600, 1800, allFeatures), 500);
    });
    it('TIMEOUT_WAITING_TO_START after 600 s (the default waiting_room_timeout) = 167 (166.67 rounded up)', () => {
      assert.equal(charge('TIMEOUT_WAITING_TO_START', 0, 600, allFeatures), 167);
    });
    it('TIMEOUT_WAITING_TO_START after 3600 s = 1000', () => {
      assert.equal(charge('TIMEOUT_WAITING_TO_START', 0, 3600, allFeatures), 1000);
    });
    it('no time in the waiting room = 0', () => {
      assert.equal(charge('BOT_NOT_ACCEPTED', 0, 0, allFeatures), 0);
    });
  });

  describe('2. TRANSCRIPTION_FAILED: recording and streaming tokens, not transcription', () => {
    it('3600 s with transcription and 2 streaming directions = 1000 + 200 = 1200', () => {
      assert.equal(charge('TRANSCRIPTION_FAILED', 3600, 0, allFeatures), 1200);
    });
    it('3600 s with transcription and no streaming = 1000', () => {
      assert.equal(charge('TRANSCRIPTION_FAILED', 3600, 0, { transcription: true, streamingDirections: 0 }), 1000);
    });
    it('1800 s with 1 streaming direction = (1000 + 100) / 2 = 550', () => {
      assert.equal(charge('TRANSCRIPTION_FAILED', 1800, 0, { transcription: true, streamingDirections: 1 }), 550);
    });
    it('waiting-room time is not charged', () => {
      assert.equal(charge('TRANSCRIPTION_FAILED', 3600, 600, allFeatures), 1200);
    });
  });

  describe('3. EXITING_MEETING_BEFORE_RECORD: nothing charged', () => {
    it('= 0, whatever the usage and features', () => {
      assert.equal(charge('EXITING_MEETING_BEFORE_RECORD', 0, 0, allFeatures), 0);
      assert.equal(charge('EXITING_MEETING_BEFORE_RECORD', 0, 1800, allFeatures), 0);
      assert.equal(charge('EXITING_MEETING_BEFORE_RECORD', 3600, 1800, allFeatures), 0);
    });
  });

  describe('4. RECORDING_START_TIMEOUT: recording tokens for the waiting time', () => {
    it('900 s of waiting = 250', () => {
      assert.equal(charge('RECORDING_START_TIMEOUT', 0, 900, recordingOnly), 250);
    });
    it('features do not add to it', () => {
      assert.equal(charge('RECORDING_START_TIMEOUT', 0, 900, allFeatures), 250);
    });
    it('recorded time does not count', () => {
      assert.equal(charge('RECORDING_START_TIMEOUT', 120, 900, allFeatures), 250);
    });
    it('the time waiting for the recording permission is waiting time too: 300 s in the waiting room and 600 s for the permission = 250', () => {
      const usage = { recorded_seconds: 0, waiting_room_seconds: 300, permission_wait_seconds: 600 };
      assert.equal(chargeForOutcome({ error_code: 'RECORDING_START_TIMEOUT', usage }, { transcription: false }), 250);
    });
    it('the permission wait is charged on RECORDING_START_TIMEOUT only (a recorded meeting is charged by its recording)', () => {
      const usage = { recorded_seconds: 3600, waiting_room_seconds: 0, permission_wait_seconds: 600 };
      assert.equal(chargeForOutcome({ error_code: 'API_REQUEST', usage }, { transcription: false }), 1000);
      assert.equal(chargeForOutcome({ error_code: 'BOT_NOT_ACCEPTED', usage: { ...usage, recorded_seconds: 0 } }, { transcription: false }), 0);
    });
  });

  describe('5. other errors: nothing charged (the reservation is released)', () => {
    const otherErrors = [
      'CANNOT_JOIN_MEETING', 'BOT_REMOVED_TOO_EARLY', 'INVALID_MEETING_URL', 'STREAMING_SETUP_FAILED', 'LOGIN_REQUIRED',
      'INTERNAL_ERROR', 'OOM_KILLED', 'SIGTERM', 'FORCE_KILLED', 'GENERAL_ERROR', 'UNKNOWN_ERROR',
      'WAITING_FOR_HOST_TIMEOUT', 'MT_LOGIN_UNAVAILABLE',
      // signed-in bots (issue 20): a sign-in that did not happen or failed ends before any recording
      'TM_LOGIN_UNAVAILABLE', 'MT_LOGIN_REQUIRED', 'MT_LOGIN_FAILED_SAML_REJECTED', 'MT_LOGIN_FAILED_TIMEOUT',
    ];
    for (const code of otherErrors) {
      it(`${code} after 3600 s recorded and 600 s waiting = 0`, () => {
        assert.equal(charge(code, 3600, 600, allFeatures), 0);
      });
    }
  });

  describe('6. normal end: full charge by duration and features used', () => {
    for (const code of ['BOT_REMOVED', 'NO_ATTENDEES', 'NO_SPEAKER', 'RECORDING_TIMEOUT', 'API_REQUEST']) {
      it(`${code}, 3600 s with all features = 1000 + 250 + 2 x 100 = 1450`, () => {
        assert.equal(charge(code, 3600, 0, allFeatures), 1450);
      });
    }
    it('recording only, 3600 s = 1000', () => {
      assert.equal(charge('API_REQUEST', 3600, 0, recordingOnly), 1000);
    });
    it('transcription without streaming, 1800 s = 625', () => {
      assert.equal(charge('API_REQUEST', 1800, 0, { transcription: true, streamingDirections: 0 }), 625);
    });
    it('one streaming direction without transcription, 3600 s = 1100', () => {
      assert.equal(charge('API_REQUEST', 3600, 0, { transcription: false, streamingDirections: 1 }), 1100);
    });
    it('waiting-room time is not charged', () => {
      assert.equal(charge('API_REQUEST', 3600, 600, allFeatures), 1450);
    });
    it('the maximum recording of 12 h with all features = 17400', () => {
      assert.equal(charge('RECORDING_TIMEOUT', 12 * 3600, 0, allFeatures), 17_400);
    });
    it('no recorded time = 0', () => {
      assert.equal(charge('NO_ATTENDEES', 0, 0, allFeatures), 0);
    });
  });

  describe('streaming is charged per direction for the seconds it was connected, not for the recording', () => {
    const withStreaming = (error_code: string, recorded_seconds: number, input: number, output: number) =>
      chargeForOutcome({ error_code, usage: { recorded_seconds, waiting_room_seconds: 0, streaming_seconds: { input, output } } }, { transcription: false });
    it('3600 s recorded, output connected 1800 s and input never = 1000 + 50 = 1050', () => {
      assert.equal(withStreaming('API_REQUEST', 3600, 0, 1800), 1050);
    });
    it('3600 s recorded, output 3600 s and input 900 s = 1000 + 100 + 25 = 1125', () => {
      assert.equal(withStreaming('BOT_REMOVED', 3600, 900, 3600), 1125);
    });
    it('TRANSCRIPTION_FAILED keeps the connected streaming time: 3600 s, output 1800 s = 1050', () => {
      assert.equal(withStreaming('TRANSCRIPTION_FAILED', 3600, 0, 1800), 1050);
    });
    it('STREAMING_SETUP_FAILED charges nothing', () => {
      assert.equal(withStreaming('STREAMING_SETUP_FAILED', 0, 0, 0), 0);
    });
    it('the recording and the streaming are rounded up once, together (1 s recorded, 1 s output = 1)', () => {
      assert.equal(withStreaming('API_REQUEST', 1, 0, 1), 1);
    });
  });

  describe('a partial thousandth is charged as a whole one (the ledger holds integers)', () => {
    it('1 s of recording = 1 (0.28 rounded up)', () => {
      assert.equal(charge('API_REQUEST', 1, 0, recordingOnly), 1);
    });
    it('1 s with all features = 1 (0.40 rounded up)', () => {
      assert.equal(charge('API_REQUEST', 1, 0, allFeatures), 1);
    });
    it('3601 s of recording = 1001 (1000.28 rounded up)', () => {
      assert.equal(charge('API_REQUEST', 3601, 0, recordingOnly), 1001);
    });
    it('1 s in the waiting room before BOT_NOT_ACCEPTED = 1', () => {
      assert.equal(charge('BOT_NOT_ACCEPTED', 0, 1, recordingOnly), 1);
    });
    it('an exact number of thousandths is not rounded up (18 s of recording = 5)', () => {
      assert.equal(charge('API_REQUEST', 18, 0, recordingOnly), 5);
    });
    it('a duration in tenths of a second is not rounded up by float error (1040.4 s of recording = 289 exactly)', () => {
      assert.equal(charge('API_REQUEST', 1040.4, 0, recordingOnly), 289);
    });
    it('every charge is a whole, non-negative number', () => {
      for (const seconds of [0, 1, 7, 59, 61, 599, 1799, 3599, 3601, 43_199]) {
        for (const code of ['API_REQUEST', 'TRANSCRIPTION_FAILED', 'BOT_NOT_ACCEPTED', 'RECORDING_START_TIMEOUT']) {
          const amount = charge(code, seconds, seconds, allFeatures);
          assert.ok(Number.isSafeInteger(amount) && amount >= 0, `${code} ${seconds}s gave ${amount}`);
        }
      }
    });
    it('a negative duration (clock skew) is charged as zero', () => {
      assert.equal(charge('API_REQUEST', -30, 0, allFeatures), 0);
      assert.equal(charge('BOT_NOT_ACCEPTED', 0, -30, allFeatures), 0);
    });
  });
});
