import type { ReadStore } from '../../adapters/read-store/port';
import type { DeliveryTarget } from '../../domain/webhooks/webhook-delivery-events';
import { endpointWants } from '../../domain/webhooks/webhook-event-types';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointView } from '../../projections/webhooks/webhook-endpoint-view';

/**
 * The team's endpoints an event at `position` goes to: those that existed before it (by log position), are
 * on and subscribe to its kind. Endpoint changes up to the event must be visible in the read models first,
 * or an endpoint made just before it would miss it.
 */
export const teamEndpointsFor = async (
  deps: { readonly readStore: ReadStore; readonly waitForReadModels: (position: bigint) => Promise<boolean> },
  teamId: string,
  eventType: string,
  position: bigint,
): Promise<DeliveryTarget[]> => {
  if (!(await deps.waitForReadModels(position))) throw new Error(`read models did not reach position ${position} in time`);
  const endpoints = await deps.readStore.find<WebhookEndpointView>(WEBHOOK_ENDPOINTS, { where: { team_id: teamId, deleted: false, enabled: true } });
  return endpoints.filter((e) => BigInt(e.created_position) < position && endpointWants(e.events, eventType)).map((e) => ({ kind: 'endpoint', endpoint_id: e.id }));
};
