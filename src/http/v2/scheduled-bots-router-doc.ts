import { ListQueryCodec } from '../codecs/list-query';
import { BatchResults, BotCreated, ScheduledBot, ScheduledBotCancelled, ScheduledBotList, ScheduledBotUpdated } from '../codecs/responses/v2-bot-responses';
import { jsonBody, v2Answer, v2WholeAnswer, type RouteDocs } from '../openapi/operation-doc';
import { MAX_BATCH_ITEMS } from './batch';
import { batchOf, scheduledBotPatchSchema, scheduledBotRequestSchema } from './bot-request-schemas';

const SCHEDULED = { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Notetaker', join_at: '2030-01-07T09:00:00+01:00' };

const notFound = { 404: ['FST_ERR_BOT_NOT_FOUND'] };

/** Refusals of a scheduled bot (no tokens or cap now: at its time). */
const SCHEDULING_ERRORS = { 400: ['FST_ERR_OPTION_NOT_AVAILABLE'], 409: ['FST_ERR_TEAM_LIMIT_REACHED'] };

/** The routes of scheduled-bots-router.ts (mounted on the /v2/bots router). */
export const scheduledBotsRouteDocs: RouteDocs = {
  'POST /v2/bots/scheduled': {
    operationId: 'scheduleBot',
    tag: 'Scheduled bots',
    summary: 'Send a bot at a later time',
    description: 'Nothing is reserved until `join_at`; the bot shows the status `scheduled` until then. The team may hold only so many waiting bots.',
    body: jsonBody('ScheduleBotRequest', scheduledBotRequestSchema(), { later: { summary: 'A bot for Monday 9:00', value: SCHEDULED } }),
    responses: { 201: v2Answer('The bot was scheduled.', BotCreated, 'BotCreated') },
    errors: SCHEDULING_ERRORS,
  },
  'POST /v2/bots/scheduled/batch': {
    operationId: 'scheduleBots',
    tag: 'Scheduled bots',
    summary: `Schedule up to ${MAX_BATCH_ITEMS} bots`,
    body: jsonBody(
      'ScheduleBotsRequest',
      batchOf('ScheduleBotRequest'),
      { one: { summary: 'One bot', value: [SCHEDULED] } },
    ),
    description: 'Each item decided on its own in order: `data` the bots scheduled, `errors` the items refused, both by `index`.',
    responses: { 200: v2WholeAnswer('The bots scheduled and the items refused, by index.', BatchResults, 'BatchResults') },
  },
  'GET /v2/bots/scheduled': {
    operationId: 'listScheduledBots',
    tag: 'Scheduled bots',
    summary: 'List the bots waiting for their time, soonest first',
    query: ListQueryCodec,
    responses: { 200: v2Answer('A page of scheduled bots.', ScheduledBotList, 'ScheduledBotList') },
  },
  'GET /v2/bots/scheduled/{bot_id}': {
    operationId: 'getScheduledBot',
    tag: 'Scheduled bots',
    summary: 'A scheduled bot',
    responses: { 200: v2Answer('The bot (after its time, it shows its status).', ScheduledBot, 'ScheduledBot') },
    errors: notFound,
  },
  'PATCH /v2/bots/scheduled/{bot_id}': {
    operationId: 'updateScheduledBot',
    tag: 'Scheduled bots',
    summary: 'Change a scheduled bot before its time',
    description: 'Each field given replaces the stored one whole (an object too); the others stay, secrets included. `join_at` moves the time.',
    body: jsonBody('UpdateScheduledBotRequest', scheduledBotPatchSchema(), { later: { summary: 'An hour later', value: { join_at: '2030-01-07T10:00:00+01:00' } } }),
    responses: { 200: v2Answer('The bot as changed, with a message.', ScheduledBotUpdated, 'ScheduledBotUpdated') },
    errors: { ...notFound, 400: ['FST_ERR_OPTION_NOT_AVAILABLE'], 409: ['FST_ERR_BOT_STATUS'] },
  },
  'DELETE /v2/bots/scheduled/{bot_id}': {
    operationId: 'cancelScheduledBot',
    tag: 'Scheduled bots',
    summary: 'Cancel a scheduled bot before its time',
    responses: { 200: v2Answer('The bot was cancelled (it ends `cancelled`).', ScheduledBotCancelled) },
    errors: { ...notFound, 409: ['FST_ERR_BOT_STATUS'] },
  },
};
