import { ChatMessageRequest } from '../codecs/chat-message-request';
import { CreateBotRequestCodec } from '../codecs/create-bot-request';
import { ListQueryCodec, listQueryCodec } from '../codecs/list-query';
import { BotAudit, BotCreated, BotDetails, BotList, BatchResults, BotStatusAnswer, ScreenshotsPage, TranscriptionRequested } from '../codecs/responses/v2-bot-responses';
import { Message } from '../codecs/responses/response-kit';
import { RetranscribeRequest } from '../codecs/transcription-choice';
import { jsonBody, v2Answer, v2WholeAnswer, type RouteDocs } from '../openapi/operation-doc';
import { MAX_BATCH_ITEMS } from './batch';
import { batchOf } from './bot-request-schemas';
import { SCREENSHOT_PAGES } from './bot-screenshots';

const BOT = { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Notetaker' };

export const CREATE_BOT_EXAMPLES = {
  simple: { summary: 'A bot that records', value: BOT },
  transcribed: {
    summary: 'Audio only, transcribed, with a callback',
    value: {
      ...BOT,
      recording_mode: 'audio_only',
      transcription_enabled: true,
      callback_enabled: true,
      callback_config: { url: 'https://example.com/callback', secret: 'a-secret-of-yours' },
      extra: { customer_id: 'c-42' },
    },
  },
};

/** Refusals of a bot's creation, as POST /v2/bots answers them (and a batch item, a scheduled bot at its time). */
export const CREATION_ERRORS = {
  400: ['FST_ERR_OPTION_NOT_AVAILABLE'],
  402: ['FST_ERR_INSUFFICIENT_TOKENS'],
  409: ['FST_ERR_BOT_ALREADY_EXISTS'],
  429: ['FST_ERR_DAILY_BOT_CAP_REACHED'],
};

const notFound = { 404: ['FST_ERR_BOT_NOT_FOUND'] };

/** The routes of bots-router.ts. */
export const botsRouteDocs: RouteDocs = {
  'POST /v2/bots': {
    operationId: 'createBot',
    tag: 'Bots',
    summary: 'Send a bot into a meeting',
    description:
      'Creates a bot that joins `meeting_url` at once (reserving tokens). Answered once the bot is readable. ' +
      'Options the service does not deliver yet are refused with `FST_ERR_OPTION_NOT_AVAILABLE`.',
    body: jsonBody('CreateBotRequest', CreateBotRequestCodec, CREATE_BOT_EXAMPLES),
    responses: { 201: v2Answer('The bot was created.', BotCreated, 'BotCreated', { bot_id: '8f7c2a1e-5d3b-4c2a-9e1f-0a1b2c3d4e5f' }) },
    errors: CREATION_ERRORS,
  },
  'POST /v2/bots/batch': {
    operationId: 'createBots',
    tag: 'Bots',
    summary: `Send up to ${MAX_BATCH_ITEMS} bots`,
    description:
      'A JSON array of creation requests, each decided on its own in order. `data` lists the bots made and `errors` the items refused (each the ' +
      'body its single request would have answered), both with the item\'s `index` and `extra`.',
    body: jsonBody(
      'CreateBotsRequest',
      batchOf('CreateBotRequest'),
      { two: { summary: 'Two bots', value: [BOT, { ...BOT, meeting_url: 'https://teams.microsoft.com/meet/123456789?p=abc' }] } },
    ),
    responses: { 200: v2WholeAnswer('The bots made and the items refused, by index.', BatchResults, 'BatchResults') },
  },
  'GET /v2/bots': {
    operationId: 'listBots',
    tag: 'Bots',
    summary: "List the team's bots, newest first",
    query: ListQueryCodec,
    responses: { 200: v2Answer('A page of bots.', BotList, 'BotList') },
  },
  'GET /v2/bots/{bot_id}': {
    operationId: 'getBot',
    tag: 'Bots',
    summary: 'A bot, its status history and its artifacts',
    description: 'Artifact links are signed for 2 hours from this read.',
    responses: { 200: v2Answer('The bot.', BotDetails, 'BotDetails') },
    errors: notFound,
  },
  'GET /v2/bots/{bot_id}/status': {
    operationId: 'getBotStatus',
    tag: 'Bots',
    summary: "A bot's status, for polling",
    description:
      'The status, when it last changed, its history, how the bot ended and where its transcription stands (`not-applicable`: none asked for; ' +
      '`not-started`: the bot has not completed yet; `queued`, `processing`, `done`, `error`: GET /v2/bots/{bot_id} says why), from the read model alone.',
    responses: { 200: v2Answer('The status.', BotStatusAnswer, 'BotStatus') },
    errors: notFound,
  },
  'GET /v2/bots/{bot_id}/screenshots': {
    operationId: 'listBotScreenshots',
    tag: 'Bots',
    summary: "A bot's screenshots, oldest first",
    description:
      `The screenshots the bot still has, ${SCREENSHOT_PAGES.default} a page (at most ${SCREENSHOT_PAGES.max}), each with a link signed for 2 hours from this read. ` +
      'Pass `cursor` to go on, `prev_cursor` to go back; a cursor is bound to its bot.',
    query: listQueryCodec(SCREENSHOT_PAGES),
    responses: { 200: v2WholeAnswer('A page of screenshots.', ScreenshotsPage, 'ScreenshotsPage') },
    errors: notFound,
  },
  'GET /v2/bots/{bot_id}/events': {
    operationId: 'getBotEvents',
    tag: 'Bots',
    summary: "A bot's recorded history (audit)",
    description: 'Every event of the bot as recorded, secrets shown as `[encrypted]`, providers\' custom parameters as `[redacted]`.',
    responses: { 200: v2Answer('The events, oldest first.', BotAudit, 'BotAudit') },
    errors: notFound,
  },
  'POST /v2/bots/{bot_id}/leave': {
    operationId: 'leaveMeeting',
    tag: 'Bots',
    summary: 'Ask a bot to leave its meeting',
    responses: { 200: v2Answer('The bot is leaving (or, scheduled, was cancelled).', Message) },
    errors: { ...notFound, 409: ['FST_ERR_BOT_STATUS'] },
  },
  'POST /v2/bots/{bot_id}/send-chat-message': {
    operationId: 'sendChatMessage',
    tag: 'Bots',
    summary: 'Post a message in the meeting chat',
    body: jsonBody('ChatMessageRequest', ChatMessageRequest, { hello: { summary: 'A message', value: { message: 'The notetaker is recording.' } } }),
    responses: { 200: v2Answer('The bot posted it.', Message) },
    errors: { ...notFound, 409: ['FST_ERR_BOT_STATUS'], 422: ['FST_ERR_CHAT_DISABLED'], 500: ['FST_ERR_SEND_CHAT_MESSAGE_FAILED'] },
  },
  'POST /v2/bots/{bot_id}/retranscribe': {
    operationId: 'retranscribeBot',
    tag: 'Bots',
    summary: "Transcribe a bot's recording again",
    description: "With the bot's own provider and key unless the body names others; the end is `bot.transcription_completed` or `bot.transcription_failed`.",
    body: jsonBody(
      'RetranscribeRequest',
      RetranscribeRequest,
      { same: { summary: "The bot's own provider", value: {} }, other: { summary: 'Another provider', value: { transcription: { provider: 'Deepgram', api_key: 'dg-…' } } } },
      false,
    ),
    responses: { 202: v2Answer('The transcription was asked for.', TranscriptionRequested) },
    errors: { ...notFound, 409: ['FST_ERR_BOT_STATUS'] },
  },
};
