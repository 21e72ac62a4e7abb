/**
 * The spec's legacy recording end reasons, which say why a bot's recording ended: where a legacy user reads
 * them (the `complete` event, `meeting_data`'s bot record) they are derived from the bot's v2 end code.
 */
export const legacyEndReasons = ['bot_removed', 'no_attendees', 'no_speaker', 'recording_timeout', 'api_request', 'meeting_error'] as const;
export type LegacyEndReason = (typeof legacyEndReasons)[number];

const byEndCode: Readonly<Record<string, LegacyEndReason>> = {
  BOT_REMOVED: 'bot_removed',
  // removed from the call before it recorded anything (vc awaiting the permission)
  BOT_REMOVED_TOO_EARLY: 'bot_removed',
  NO_ATTENDEES: 'no_attendees',
  NO_SPEAKER: 'no_speaker',
  RECORDING_TIMEOUT: 'recording_timeout',
  API_REQUEST: 'api_request',
};

/**
 * Why the recording ended, in the legacy words. A pre-recording stop was asked through the API
 * (`stoppedThroughApi`: leave, DELETE, a cancelled calendar event) or is a meeting that ended before
 * admission, which sends everyone away as a removal does; every failure is a `meeting_error`.
 */
export const legacyEndReason = (endCode: string, stoppedThroughApi: boolean): LegacyEndReason => {
  if (endCode === 'EXITING_MEETING_BEFORE_RECORD') return stoppedThroughApi ? 'api_request' : 'bot_removed';
  return byEndCode[endCode] ?? 'meeting_error';
};
