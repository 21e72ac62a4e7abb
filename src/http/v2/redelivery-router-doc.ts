import { CallbackRetried, WebhookResent } from '../codecs/responses/v2-bot-responses';
import { RetryCallbackCodec } from '../codecs/webhook-requests';
import { jsonBody, v2Answer, type RouteDocs } from '../openapi/operation-doc';

const ended = { 404: ['FST_ERR_BOT_NOT_FOUND'], 409: ['FST_ERR_BOT_STATUS'] };

/** The routes of redelivery-router.ts. */
export const redeliveryRouteDocs: RouteDocs = {
  'POST /v2/bots/{bot_id}/resend-webhook': {
    operationId: 'resendFinalWebhook',
    tag: 'Bots',
    summary: "Send an ended bot's final webhook again",
    description: "To the team's endpoints that are on and take the event now (a legacy bot: its webhook_url). Same `webhook-id` as the first time, fresh links.",
    responses: { 200: v2Answer('Queued (what is still on its way is not queued twice).', WebhookResent) },
    errors: { ...ended, 400: ['FST_ERR_NO_WEBHOOK_ENDPOINT'] },
  },
  'POST /v2/bots/{bot_id}/retry-callback': {
    operationId: 'retryCallback',
    tag: 'Bots',
    summary: "Send an ended bot's final event to its callback again",
    description: "To the bot's callback, or to the URL, method or secret the body gives (the bot's secret goes only to the bot's own URL).",
    body: jsonBody(
      'RetryCallbackRequest',
      RetryCallbackCodec,
      { own: { summary: "The bot's own callback", value: {} }, elsewhere: { summary: 'Another URL', value: { url: 'https://example.com/callback', method: 'PUT' } } },
      false,
    ),
    responses: { 200: v2Answer('Queued.', CallbackRetried) },
    errors: { ...ended, 400: ['FST_ERR_NO_CALLBACK'] },
  },
};
