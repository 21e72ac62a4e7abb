import * as t from 'io-ts';
import { eventCodec, IsoInstant, Sealed } from '../codec-helpers';

/**
 * A team's webhook endpoint, one stream each. `events` empty means every event kind. The signing secret
 * (`whsec_...`) is sealed: it is shown to the team once, when it is made, and never again.
 */
export const WebhookEndpointAdded = eventCodec('WebhookEndpointAdded', {
  endpoint_id: t.string,
  team_id: t.string,
  url: t.string,
  events: t.array(t.string),
  description: t.union([t.string, t.null]),
  secret: Sealed,
  at: IsoInstant,
});

/** The whole new state of what a team can change, so that a reader needs no earlier update. */
export const WebhookEndpointUpdated = eventCodec('WebhookEndpointUpdated', {
  endpoint_id: t.string,
  team_id: t.string,
  url: t.string,
  events: t.array(t.string),
  description: t.union([t.string, t.null]),
  enabled: t.boolean,
  at: IsoInstant,
});

/** New attempts are signed with the new secret, and also with the previous one until `previous_valid_until`. */
export const WebhookEndpointSecretRotated = eventCodec('WebhookEndpointSecretRotated', {
  endpoint_id: t.string,
  team_id: t.string,
  secret: Sealed,
  previous_valid_until: IsoInstant,
  at: IsoInstant,
});

/** Turned off by the service: the endpoint failed without a single success since `failing_since`. */
export const WebhookEndpointDisabled = eventCodec('WebhookEndpointDisabled', {
  endpoint_id: t.string,
  team_id: t.string,
  failing_since: IsoInstant,
  at: IsoInstant,
});

export const WebhookEndpointDeleted = eventCodec('WebhookEndpointDeleted', { endpoint_id: t.string, team_id: t.string, at: IsoInstant });

export const WebhookEndpointEvent = t.union([
  WebhookEndpointAdded, WebhookEndpointUpdated, WebhookEndpointSecretRotated, WebhookEndpointDisabled, WebhookEndpointDeleted,
]);
export type WebhookEndpointEvent = t.TypeOf<typeof WebhookEndpointEvent>;

export const webhookEndpointStreamName = (endpointId: string): string => `webhook-endpoint-${endpointId}`;
