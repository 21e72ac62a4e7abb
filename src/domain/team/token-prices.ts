/** Tokens are integers in thousandths: 0.5 token = 500. */
export const THOUSANDTHS_PER_TOKEN = 1000;

export const RESERVATION_PER_BOT = 500;

/** Prices per hour of recording, in thousandths of a token (DESIGN.md). */
export const pricePerHour = {
  recording: 1000,
  transcription: 250,
  streamingPerDirection: 100,
} as const;
