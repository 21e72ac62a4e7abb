import { BOTS_WITH_METADATA_PARAMETERS, DEFAULT_LEGACY_LIMIT, MAX_EXTRA_CONDITIONS, MAX_LEGACY_LIMIT } from '../codecs/bots-with-metadata-query';
import { LegacyCreateBotRequestCodec } from '../codecs/legacy-create-bot-request';
import { MAX_QUERY_VALUE_LENGTH, QUERY_DATE_TIME_SCHEMA } from '../codecs/legacy-query-kit';
import { MAX_CURSOR_LENGTH } from '../codecs/list-query';
import { MEETING_DATA_PARAMETERS } from '../codecs/meeting-data-query';
import { UUID_SCHEMA } from '../codecs/path-uuid';
import { BotsWithMetadata, LegacyBotCreated, LegacyOk, LegacyRetranscribeAccepted, LegacyScreenshots, MeetingData } from '../codecs/responses/legacy-bot-responses';
import { LegacyRetranscribeRequest } from '../codecs/transcription-choice';
import { jsonBody, legacyAnswer, type ParameterDoc, type RouteDocs } from '../openapi/operation-doc';

const text = (description: string): ParameterDoc => ({ required: false, description, schema: { type: 'string', maxLength: MAX_QUERY_VALUE_LENGTH } });
const since = (description: string): ParameterDoc => ({ required: false, description, schema: QUERY_DATE_TIME_SCHEMA });
const ESCAPES = 'Write a comma inside a value as \\, and a colon inside a field name as \\:.';

/** Every parameter the decoder takes (bots-with-metadata-query.ts), described: the compiler holds the two lists together. */
const botsWithMetadataQuery: Record<(typeof BOTS_WITH_METADATA_PARAMETERS)[number], ParameterDoc> = {
  bot_name: text('Bots whose name contains this (any case, any accents).'),
  meeting_url: text('Bots whose meeting URL contains this.'),
  speaker_name: text('Bots where a speaker\'s name contains this.'),
  created_after: since('Created at or after.'),
  created_before: since('Created at or before.'),
  ended_after: since('Ended at or after.'),
  filter_by_extra: text(`\`field:value\` pairs, comma-separated (at most ${MAX_EXTRA_CONDITIONS}): bots whose \`extra\` field has that text. ${ESCAPES}`),
  sort_by_extra: text(`\`field\`, \`field:asc\` or \`field:desc\`: sorted by that \`extra\` field's text, bots having it first. ${ESCAPES}`),
  limit: { required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_LEGACY_LIMIT, default: DEFAULT_LEGACY_LIMIT } },
  cursor: { required: false, description: 'The `next_cursor` of the previous page (of the same filters and sort).', schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH } },
};

const meetingDataQuery: Record<(typeof MEETING_DATA_PARAMETERS)[number], ParameterDoc> = {
  bot_id: { required: true, description: "The bot's uuid.", schema: UUID_SCHEMA },
  include_transcripts: { required: false, schema: { type: 'boolean', default: true } },
};

const LEGACY_BOT = { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Notetaker', webhook_url: 'https://example.com/hooks' };

const UNKNOWN_PARAMETER = 'Unknown parameters, and a parameter given twice, are refused (400).';

/** The routes of legacy/bots-router.ts. */
export const legacyBotsRouteDocs: RouteDocs = {
  'POST /bots': {
    operationId: 'legacyCreateBot',
    tag: 'Legacy bots',
    summary: 'Send a bot into a meeting (legacy)',
    description:
      'The bot sends the legacy webhooks to its `webhook_url` (else to the team\'s endpoints). With a `start_time` ahead of now it is a scheduled ' +
      'bot (as POST /v2/bots/scheduled makes), which reserves nothing until its time.',
    body: jsonBody('LegacyCreateBotRequest', LegacyCreateBotRequestCodec, {
      simple: { summary: 'A bot with its webhook', value: LEGACY_BOT },
      later: {
        summary: 'A bot for later, streaming its audio, transcribed',
        value: { ...LEGACY_BOT, start_time: 1893920400, streaming: { input: 'wss://example.com/audio', audio_frequency: '16khz' }, speech_to_text: 'Gladia' },
      },
    }),
    responses: { 200: legacyAnswer('The bot was created (or scheduled).', LegacyBotCreated) },
    errors: {
      400: ['FST_ERR_OPTION_NOT_AVAILABLE'],
      402: ['FST_ERR_INSUFFICIENT_TOKENS'],
      409: ['FST_ERR_BOT_ALREADY_EXISTS', 'FST_ERR_TEAM_LIMIT_REACHED'],
      429: ['FST_ERR_DAILY_BOT_CAP_REACHED'],
    },
  },
  'GET /bots/bots_with_metadata': {
    operationId: 'legacyListBots',
    tag: 'Legacy bots',
    summary: "List the team's bots with filters (legacy)",
    description: `Newest first unless sorted by an \`extra\` field. An empty value is not a filter. ${UNKNOWN_PARAMETER}`,
    query: botsWithMetadataQuery,
    emptyQueryValueIsAbsent: true,
    responses: { 200: legacyAnswer('A page of bots.', BotsWithMetadata, 'BotsWithMetadata') },
  },
  'GET /bots/meeting_data': {
    operationId: 'legacyMeetingData',
    tag: 'Legacy bots',
    summary: "A bot's recording, transcript and record (legacy)",
    description: `Links are signed for 2 hours from this read; every read counts in \`access_count\`. ${UNKNOWN_PARAMETER}`,
    query: meetingDataQuery,
    emptyQueryValueIsAbsent: true,
    responses: { 200: legacyAnswer('The bot\'s data.', MeetingData, 'MeetingData') },
    errors: { 404: ['FST_ERR_BOT_NOT_FOUND'] },
  },
  'POST /bots/retranscribe': {
    operationId: 'legacyRetranscribe',
    tag: 'Legacy bots',
    summary: "Transcribe a bot's recording again (legacy)",
    description: 'The end is `transcription_complete` or `transcription_failed`, to the bot\'s webhook_url.',
    body: jsonBody('LegacyRetranscribeRequest', LegacyRetranscribeRequest, {
      own: { summary: "The bot's own provider", value: { bot_uuid: '8f7c2a1e-5d3b-4c2a-9e1f-0a1b2c3d4e5f' } },
      other: { summary: 'Another provider', value: { bot_uuid: '8f7c2a1e-5d3b-4c2a-9e1f-0a1b2c3d4e5f', speech_to_text: 'Gladia' } },
    }),
    responses: { 202: legacyAnswer('The transcription was asked for.', LegacyRetranscribeAccepted) },
    errors: { 404: ['FST_ERR_BOT_NOT_FOUND'], 409: ['FST_ERR_BOT_STATUS'] },
  },
  'GET /bots/{bot_id}/screenshots': {
    operationId: 'legacyListBotScreenshots',
    tag: 'Legacy bots',
    summary: "A bot's screenshots, oldest first (legacy)",
    description: 'Every screenshot the bot still has: when it was stored, and a link signed for 2 hours from this read.',
    responses: { 200: legacyAnswer('The screenshots.', LegacyScreenshots, 'LegacyScreenshots') },
    errors: { 404: ['FST_ERR_BOT_NOT_FOUND'] },
  },
  'DELETE /bots/{bot_id}': {
    operationId: 'legacyRemoveBot',
    tag: 'Legacy bots',
    summary: 'Ask a bot to leave (legacy)',
    responses: { 200: legacyAnswer('The bot is leaving.', LegacyOk) },
    errors: { 404: ['FST_ERR_BOT_NOT_FOUND'], 409: ['FST_ERR_BOT_STATUS'] },
  },
};
