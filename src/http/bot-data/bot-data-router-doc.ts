import { LegacyDataDeletion } from '../codecs/responses/legacy-bot-responses';
import { BotDataDeleted } from '../codecs/responses/v2-bot-responses';
import { legacyAnswer, v2Answer, type ParameterDoc, type RouteDocs } from '../openapi/operation-doc';

const WHAT =
  "Deletes the bot's personal data (meeting link, name, `extra`, entry message, participants, speakers, chat, transcription parameters: " +
  'unreadable at once, everywhere, backups of the log included) and erases its artifacts from every store. Only once the bot has ended and ' +
  'no transcription of it is due or running (409 `FST_ERR_BOT_STATUS`). The answer waits a few seconds for the erasure of the artifacts: ' +
  '`deleted`, or `partiallyDeleted` while some are still being erased (it goes on); asked again, `alreadyDeleted`.';

const errors = { 404: ['FST_ERR_BOT_NOT_FOUND'], 409: ['FST_ERR_BOT_STATUS'] };

const deleteDataQuery: Record<'delete_from_provider', ParameterDoc> = {
  delete_from_provider: {
    required: false,
    description:
      "`true` would also delete the transcription provider's own copy, which the service cannot do yet: refused (400 `FST_ERR_OPTION_NOT_AVAILABLE`). " +
      'Unknown parameters, and a parameter given twice, are refused (400).',
    schema: { type: 'boolean', default: false },
  },
};

/** The routes of bot-data-router.ts (v2 and legacy). */
export const botDataRouteDocs: RouteDocs = {
  'DELETE /v2/bots/{bot_id}/delete-data': {
    operationId: 'deleteBotData',
    tag: 'Bots',
    summary: "Delete a bot's data",
    description: WHAT,
    query: deleteDataQuery,
    emptyQueryValueIsAbsent: true,
    responses: { 200: v2Answer('What was deleted, and when.', BotDataDeleted, 'BotDataDeleted') },
    errors: { ...errors, 400: ['FST_ERR_OPTION_NOT_AVAILABLE'] },
  },
  'POST /bots/{bot_id}/delete_data': {
    operationId: 'legacyDeleteBotData',
    tag: 'Legacy bots',
    summary: "Delete a bot's data (legacy)",
    description: WHAT,
    responses: { 200: legacyAnswer('What was deleted.', LegacyDataDeletion) },
    errors,
  },
};
