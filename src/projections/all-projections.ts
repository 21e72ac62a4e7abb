import { apiKeyViewProjection } from './api-key-view';
import { botViewProjection } from './bot-view';
import type { Projection } from './projection';
import { storageConfigViewProjection } from './storage-config-view';
import { teamViewProjection } from './team-view';

export const allProjections: readonly Projection<any>[] = [botViewProjection, apiKeyViewProjection, teamViewProjection, storageConfigViewProjection];
