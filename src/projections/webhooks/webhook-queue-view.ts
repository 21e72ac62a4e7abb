import { deliveryStreamName, targetKeyOf } from '../../domain/webhooks/webhook-delivery-events';
import type { Projection } from '../projection';

/**
 * Each delivery stream and the messages still waiting in it: where the delivery worker starts from after a
 * restart (the streams themselves say what to send next).
 */
export type WebhookQueueView = {
  readonly id: string;
  readonly team_id: string;
  /** targetKeyOf: deliveries to one target share its concurrency */
  readonly target_key: string;
  readonly pending_message_ids: readonly string[];
  readonly pending: boolean;
};

export const WEBHOOK_QUEUES = 'webhook_queues';

const without = (ids: readonly string[], id: string) => ids.filter((x) => x !== id);

export const webhookQueueViewProjection: Projection<WebhookQueueView> = {
  collection: WEBHOOK_QUEUES,
  // The queues with messages waiting (the delivery worker's start, and per target), not every queue ever made.
  indexes: [[{ field: 'pending', direction: 'asc' }], [{ field: 'target_key', direction: 'asc' }, { field: 'pending', direction: 'asc' }]],
  documentId: (event) =>
    event.type === 'WebhookMessageQueued' || event.type === 'WebhookMessageRequeued' || event.type === 'WebhookDelivered' || event.type === 'WebhookDeliveryAbandoned'
      ? deliveryStreamName(event.data.target, event.data.subject)
      : null,
  evolve: (doc, event) => {
    if (!('target' in event.data) || !('message_id' in event.data)) return null;
    const { target, subject, team_id, message_id } = event.data as { target: Parameters<typeof deliveryStreamName>[0]; subject: string; team_id: string; message_id: string };
    const target_key = targetKeyOf(target);
    const current = doc ?? { id: deliveryStreamName(target, subject), team_id, target_key, pending_message_ids: [], pending: false };
    const ids =
      event.type === 'WebhookMessageQueued' || event.type === 'WebhookMessageRequeued'
        ? [...without(current.pending_message_ids, message_id), message_id]
        : without(current.pending_message_ids, message_id);
    return { ...current, pending_message_ids: ids, pending: ids.length > 0 };
  },
};
