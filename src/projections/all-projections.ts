import { apiKeyViewProjection } from './api-key-view';
import { botViewProjection } from './bot-view';
import { instanceViewProjection } from './instance-view';
import type { Projection } from './projection';
import { teamViewProjection } from './team-view';
import { webhookAttemptViewProjection } from './webhooks/webhook-attempt-view';
import { webhookEndpointViewProjection } from './webhooks/webhook-endpoint-view';
import { webhookQueueViewProjection } from './webhooks/webhook-queue-view';

export const allProjections: readonly Projection<any>[] = [
  botViewProjection,
  apiKeyViewProjection,
  teamViewProjection,
  instanceViewProjection,
  webhookEndpointViewProjection,
  webhookAttemptViewProjection,
  webhookQueueViewProjection,
];
