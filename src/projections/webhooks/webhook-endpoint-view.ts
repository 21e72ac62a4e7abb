import type { Projection } from '../projection';

/** A team's endpoint as the API shows it, plus what delivery needs to know about it (never the secret). */
export type WebhookEndpointView = {
  readonly id: string;
  readonly team_id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly enabled: boolean;
  /** set when the service turned it off; cleared when the team turns it on again */
  readonly disabled_reason: 'failing_for_5_days' | null;
  readonly deleted: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  /** global position of its creation: only events after it are sent to it (decimal string) */
  readonly created_position: string;
  /** the first failed attempt since the last success; null while it succeeds */
  readonly failing_since: string | null;
  readonly last_success_at: string | null;
  readonly last_attempt_at: string | null;
};

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';

export const webhookEndpointViewProjection: Projection<WebhookEndpointView> = {
  collection: WEBHOOK_ENDPOINTS,
  documentId: (event) => {
    if (event.type.startsWith('WebhookEndpoint')) return (event.data as { endpoint_id: string }).endpoint_id;
    if (event.type === 'WebhookDeliveryAttempted' && event.data.target.kind === 'endpoint') return event.data.target.endpoint_id;
    return null;
  },
  evolve: (doc, event, { position }) => {
    if (event.type === 'WebhookEndpointAdded') {
      const { endpoint_id, team_id, url, events, description, at } = event.data;
      return {
        id: endpoint_id, team_id, url, events, description, enabled: true, disabled_reason: null, deleted: false,
        created_at: at, updated_at: at, created_position: position.toString(), failing_since: null, last_success_at: null, last_attempt_at: null,
      };
    }
    if (doc === null) return null;
    switch (event.type) {
      case 'WebhookEndpointUpdated': {
        const { url, events, description, enabled, at } = event.data;
        const turnedOn = enabled && !doc.enabled;
        // Turned on again by the team: its failures so far no longer count towards disabling it.
        return { ...doc, url, events, description, enabled, updated_at: at, ...(turnedOn ? { disabled_reason: null, failing_since: null } : {}) };
      }
      case 'WebhookEndpointSecretRotated':
        return { ...doc, updated_at: event.data.at };
      case 'WebhookEndpointDisabled':
        return { ...doc, enabled: false, disabled_reason: 'failing_for_5_days', updated_at: event.data.at };
      case 'WebhookEndpointDeleted':
        return { ...doc, deleted: true, enabled: false, updated_at: event.data.at };
      case 'WebhookDeliveryAttempted': {
        const { succeeded, at } = event.data;
        return succeeded
          ? { ...doc, failing_since: null, last_success_at: at, last_attempt_at: at }
          : { ...doc, failing_since: doc.failing_since ?? at, last_attempt_at: at };
      }
      default:
        return null;
    }
  },
};
