import { apiKeyViewProjection } from '../projections/api-key-view';
import { teamViewProjection } from '../projections/team-view';
import type { Capability } from './capability';

/** Teams, their keys and limits: read models only (the admin API is part of the app itself). */
export const teams: Capability = {
  name: 'teams',
  projections: [apiKeyViewProjection, teamViewProjection],
  build: () => ({ parts: [] }),
};
