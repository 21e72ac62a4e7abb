import { NodeWebhookHttp } from '../adapters/webhook-http/node-webhook-http';
import { redeliveryRouter } from '../http/v2/redelivery-router';
import { redeliveryRouteDocs } from '../http/v2/redelivery-router-doc';
import { webhooksRouter } from '../http/v2/webhooks-router';
import { webhooksRouteDocs } from '../http/v2/webhooks-router-doc';
import { webhookAttemptViewProjection } from '../projections/webhooks/webhook-attempt-view';
import { webhookEndpointViewProjection } from '../projections/webhooks/webhook-endpoint-view';
import { webhookQueueViewProjection } from '../projections/webhooks/webhook-queue-view';
import { partOf } from '../subscribers/background/background-part';
import { WebhookDeliveryWorker } from '../subscribers/deliver-webhooks';
import { queueWebhookMessages } from '../subscribers/queue-webhook-messages';
import type { Capability } from './capability';
import { subscriberPart } from './subscriber-part';

/**
 * Webhooks and callbacks: endpoints, the queue (bot and calendar events turned into messages) and the
 * delivery (claim, send, record), each under its lease.
 */
export const webhooks: Capability = {
  name: 'webhooks',
  projections: [webhookEndpointViewProjection, webhookAttemptViewProjection, webhookQueueViewProjection],
  apiDocs: [redeliveryRouteDocs, webhooksRouteDocs],
  build: (context) => {
    const { overrides, log } = context;
    const delivery = partOf(
      'webhook-delivery',
      async (holding) => {
        const worker = new WebhookDeliveryWorker({
          eventStore: context.eventStore,
          readStore: context.readStore,
          secretBox: context.secretBox,
          links: context.links,
          commands: context.commands,
          http: overrides.webhookHttp ?? new NodeWebhookHttp(context.webhookTargets.policy, context.webhookTargets.resolve),
          log,
          holding,
          ...(overrides.webhookDelivery ? { options: overrides.webhookDelivery } : {}),
          ...(overrides.webhookJitter ? { jitter: overrides.webhookJitter } : {}),
        });
        await worker.start(context.readModels.position);
        return worker;
      },
      { lease: 'webhook-delivery' },
    );
    const queued = () => delivery.current?.wake();
    const queue = subscriberPart(context, 'webhook-queue', () =>
      queueWebhookMessages({
        eventStore: context.eventStore,
        readStore: context.readStore,
        commands: context.commands,
        waitForReadModels: (position) => context.readModels.waitForPosition(position, 30_000),
        queued,
      }),
    );
    const api = context.roles.api;
    return {
      parts: api ? [queue, delivery] : [],
      publicRouters: api ? [redeliveryRouter({ ...context, queued }), webhooksRouter({ ...context, projections: context.readModels })] : [],
      expose: { webhooks: delivery },
    };
  },
};
