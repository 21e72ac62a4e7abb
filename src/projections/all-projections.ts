import { apiKeyViewProjection } from './api-key-view';
import { botViewProjection } from './bot-view';
import { legacyBotViewProjection } from './legacy-bot-view';
import type { Projection } from './projection';
import { teamViewProjection } from './team-view';

export const allProjections: readonly Projection<any>[] = [botViewProjection, apiKeyViewProjection, teamViewProjection, legacyBotViewProjection];
