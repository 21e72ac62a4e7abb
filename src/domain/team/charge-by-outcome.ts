import type { Usage } from '../bot/bot-events';
import { isNormalEnd } from '../bot/end-codes';
import { pricePerHour } from './token-prices';

export interface BotFeatures {
  readonly transcription: boolean;
}

export interface BotOutcome {
  readonly error_code: string;
  readonly usage: Usage;
}

/**
 * Partial thousandths are charged as a whole one: the ledger only holds integers. The seconds become
 * whole milliseconds first, so that a float error (1040.4 s is 1040.40000000000009 s) is not rounded up.
 */
const priceTimesMs = (pricePerHourThousandths: number, seconds: number): number => pricePerHourThousandths * Math.round(Math.max(0, seconds) * 1000);
const forSeconds = (pricePerHourThousandths: number, seconds: number, extraPriceTimesMs = 0): number =>
  Math.ceil((priceTimesMs(pricePerHourThousandths, seconds) + extraPriceTimesMs) / 3_600_000);

/** The spec's "Token charging by outcome" table, in thousandths of a token. */
export const chargeForOutcome = (outcome: BotOutcome, features: BotFeatures): number => {
  const { recorded_seconds, waiting_room_seconds } = outcome.usage;
  // Streaming is charged per direction for the time it was connected (usage), not for the recording's length.
  const { input, output } = outcome.usage.streaming_seconds ?? { input: 0, output: 0 };
  const streaming = priceTimesMs(pricePerHour.streamingPerDirection, input) + priceTimesMs(pricePerHour.streamingPerDirection, output);
  switch (outcome.error_code) {
    case 'BOT_NOT_ACCEPTED':
    case 'TIMEOUT_WAITING_TO_START':
      return forSeconds(pricePerHour.recording, waiting_room_seconds);
    // "Recording tokens for the waiting time": the bot waited to be let in, then to be let record.
    case 'RECORDING_START_TIMEOUT':
      return forSeconds(pricePerHour.recording, waiting_room_seconds + (outcome.usage.permission_wait_seconds ?? 0));
    case 'TRANSCRIPTION_FAILED':
      return forSeconds(pricePerHour.recording, recorded_seconds, streaming);
    case 'EXITING_MEETING_BEFORE_RECORD':
      return 0;
    default:
      if (!isNormalEnd(outcome.error_code)) return 0;
      return forSeconds(pricePerHour.recording + (features.transcription ? pricePerHour.transcription : 0), recorded_seconds, streaming);
  }
};
