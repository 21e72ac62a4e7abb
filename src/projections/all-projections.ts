import { apiKeyViewProjection } from './api-key-view';
import { artifactRetentionProjection } from './artifact-retention-view';
import { botDataErasureProjection } from './bot-data-erasure-view';
import { botStorageViewProjection } from './bot-storage-view';
import { botViewProjection } from './bot-view';
import { calendarBotParamViewProjection } from './calendars/calendar-bot-param-view';
import { calendarChannelViewProjection } from './calendars/calendar-channel-view';
import { calendarEventViewProjection } from './calendars/calendar-event-view';
import { calendarViewProjection } from './calendars/calendar-view';
import { instanceViewProjection } from './instance-view';
import { legacyBotViewProjection } from './legacy-bot-view';
import type { Projection } from './projection';
import { spilledArtifactsProjection } from './spilled-artifact-view';
import { storageConfigViewProjection } from './storage-config-view';
import { teamViewProjection } from './team-view';
import { vcCredentialViewProjection } from './vc-credential-view';
import { webhookAttemptViewProjection } from './webhooks/webhook-attempt-view';
import { webhookEndpointViewProjection } from './webhooks/webhook-endpoint-view';
import { webhookQueueViewProjection } from './webhooks/webhook-queue-view';

export const allProjections: readonly Projection<any>[] = [
  botViewProjection,
  apiKeyViewProjection,
  teamViewProjection,
  storageConfigViewProjection,
  botStorageViewProjection,
  spilledArtifactsProjection,
  artifactRetentionProjection,
  instanceViewProjection,
  webhookEndpointViewProjection,
  webhookAttemptViewProjection,
  webhookQueueViewProjection,
  legacyBotViewProjection,
  calendarViewProjection,
  calendarEventViewProjection,
  calendarChannelViewProjection,
  calendarBotParamViewProjection,
  botDataErasureProjection,
  vcCredentialViewProjection,
];
