import type { DomainEvent } from '../../domain/all-events';
import { targetKeyOf } from '../../domain/webhooks/webhook-delivery-events';
import type { Projection } from '../projection';

/** One delivery attempt, as the delivery log of an endpoint (or a bot's callback) lists it. */
export type WebhookAttemptView = {
  readonly id: string;
  readonly team_id: string;
  readonly endpoint_id: string | null;
  readonly bot_id: string | null;
  readonly subject: string;
  readonly webhook_id: string;
  readonly event_type: string;
  readonly attempt: number;
  readonly url: string;
  readonly attempted_at: string;
  readonly status_code: number | null;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly succeeded: boolean;
  readonly next_attempt_at: string | null;
};

export const WEBHOOK_ATTEMPTS = 'webhook_attempts';

const botOfSubject = (subject: string): string | null => (subject.startsWith('bot-') ? subject.slice('bot-'.length) : null);

type Attempted = Extract<DomainEvent, { type: 'WebhookDeliveryAttempted' }>['data'];

/** Named after what it is: a requeued message's attempts start at 1 again, so the time is part of it. */
const attemptId = (d: Attempted): string =>
  `${d.message_id}:${d.target.kind === 'endpoint' ? d.target.endpoint_id : d.target.kind === 'calendar' ? targetKeyOf(d.target) : d.target.bot_id}:${d.at}:${d.attempt}`;

export const webhookAttemptViewProjection: Projection<WebhookAttemptView> = {
  collection: WEBHOOK_ATTEMPTS,
  documentId: (event) => (event.type === 'WebhookDeliveryAttempted' ? attemptId(event.data) : null),
  evolve: (doc, event) => {
    if (doc !== null || event.type !== 'WebhookDeliveryAttempted') return null;
    const d = event.data;
    return {
      id: attemptId(d),
      team_id: d.team_id,
      endpoint_id: d.target.kind === 'endpoint' ? d.target.endpoint_id : null,
      bot_id: d.target.kind === 'endpoint' ? botOfSubject(d.subject) : d.target.kind === 'calendar' ? null : d.target.bot_id,
      subject: d.subject,
      webhook_id: d.message_id,
      event_type: d.event_type,
      attempt: d.attempt,
      url: d.url,
      attempted_at: d.at,
      status_code: d.status_code,
      error: d.error,
      duration_ms: d.duration_ms,
      succeeded: d.succeeded,
      next_attempt_at: d.next_attempt_at,
    };
  },
};
