import { ListQueryCodec } from '../codecs/list-query';
import {
  WebhookDeliveryList, WebhookEndpoint, WebhookEndpointCreated, WebhookEndpointDeleted, WebhookEndpointList, WebhookSecretRotated,
} from '../codecs/responses/webhook-endpoint-responses';
import { CreateWebhookCodec, UpdateWebhookCodec } from '../codecs/webhook-requests';
import { jsonBody, v2Answer, type RouteDocs } from '../openapi/operation-doc';

const notFound = { 404: ['FST_ERR_WEBHOOK_NOT_FOUND'] };

/** The routes of webhooks-router.ts. */
export const webhooksRouteDocs: RouteDocs = {
  'POST /v2/webhooks': {
    operationId: 'createWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Register a webhook endpoint',
    description: 'The answer shows the signing secret once. `events` absent, null or empty: every kind, present and future.',
    body: jsonBody('CreateWebhookRequest', CreateWebhookCodec, {
      some: { summary: 'Final events only', value: { url: 'https://example.com/hooks', events: ['bot.completed', 'bot.failed'] } },
    }),
    responses: { 201: v2Answer('The endpoint, with its secret.', WebhookEndpointCreated, 'WebhookEndpointCreated') },
    errors: { 409: ['FST_ERR_TEAM_LIMIT_REACHED'] },
  },
  'GET /v2/webhooks': {
    operationId: 'listWebhookEndpoints',
    tag: 'Webhook endpoints',
    summary: "The team's endpoints, oldest first",
    responses: { 200: v2Answer('Every endpoint (never their secrets).', WebhookEndpointList) },
  },
  'GET /v2/webhooks/{webhook_id}': {
    operationId: 'getWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'An endpoint',
    responses: { 200: v2Answer('The endpoint.', WebhookEndpoint, 'WebhookEndpoint') },
    errors: notFound,
  },
  'PATCH /v2/webhooks/{webhook_id}': {
    operationId: 'updateWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Change an endpoint',
    description: 'At least one field; a field left out keeps its value, `description: null` clears it. `enabled: true` turns a disabled endpoint on again.',
    body: jsonBody('UpdateWebhookRequest', UpdateWebhookCodec, { off: { summary: 'Turn it off', value: { enabled: false } } }),
    responses: { 200: v2Answer('The endpoint as changed.', WebhookEndpoint, 'WebhookEndpoint') },
    errors: notFound,
  },
  'DELETE /v2/webhooks/{webhook_id}': {
    operationId: 'deleteWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Remove an endpoint',
    responses: { 200: v2Answer('Removed: nothing more is sent to it.', WebhookEndpointDeleted) },
    errors: notFound,
  },
  'POST /v2/webhooks/{webhook_id}/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    tag: 'Webhook endpoints',
    summary: "Replace an endpoint's signing secret",
    responses: { 200: v2Answer('The new secret, shown only now.', WebhookSecretRotated) },
    errors: notFound,
  },
  'GET /v2/webhooks/{webhook_id}/deliveries': {
    operationId: 'listWebhookDeliveries',
    tag: 'Webhook endpoints',
    summary: 'Every attempt to deliver to an endpoint, newest first',
    query: ListQueryCodec,
    responses: { 200: v2Answer('A page of attempts.', WebhookDeliveryList, 'WebhookDeliveryList') },
    errors: notFound,
  },
};
