import type { Projection } from './projection';

/** When each service instance last said it was alive: other instances take over the bots of one gone for good. */
export type InstanceView = {
  readonly id: string;
  readonly last_alive_at: string;
};

export const INSTANCES = 'instances';

export const instanceViewProjection: Projection<InstanceView> = {
  collection: INSTANCES,
  documentId: (event) => (event.type === 'InstanceAlive' ? event.data.instance_id : null),
  evolve: (_doc, event) => (event.type === 'InstanceAlive' ? { id: event.data.instance_id, last_alive_at: event.data.at } : null),
};
