import * as E from 'fp-ts/Either';
import { toMillis } from '../codec-helpers';
import type { Decider } from '../decider';
import { waitAfterFailedAttempt } from './retry-schedule';
import type { AbandonReason, CallbackOverride, DeliveryTarget, WebhookDeliveryEvent } from './webhook-delivery-events';

/** What the receiver did with an attempt: answered with a status, or never answered (network, timeout, refusal). */
export type AttemptResult = { readonly status_code: number } | { readonly error: string };

export type WebhookDeliveryCommand =
  | {
      readonly type: 'QueueMessage';
      readonly target: DeliveryTarget;
      readonly subject: string;
      readonly team_id: string;
      readonly message_id: string;
      readonly event_type: string;
      readonly payload: Record<string, unknown>;
      /** a callback's own URL, method and secret for this message (retry-callback), else null */
      readonly callback: CallbackOverride | null;
      readonly now: string;
    }
  | {
      readonly type: 'RecordAttempt';
      readonly message_id: string;
      /** 1 for the first attempt of a round; a number already recorded is a repeat and changes nothing */
      readonly attempt: number;
      readonly url: string;
      readonly result: AttemptResult;
      readonly duration_ms: number;
      /** in [0, 1), drawn outside the domain, spreads the retry time */
      readonly jitter: number;
      readonly now: string;
    }
  /**
   * Claims the head's next attempt before it is sent: refused (no event) while another owner's claim of it
   * has not expired; a claim that expired (its owner died mid-request) is taken over.
   */
  | { readonly type: 'ClaimAttempt'; readonly message_id: string; readonly attempt: number; readonly owner: string; readonly claimed_until: string; readonly now: string }
  | { readonly type: 'AbandonPending'; readonly reason: AbandonReason; readonly now: string }
  | {
      readonly type: 'Requeue';
      readonly message_id: string;
      /** the same request twice requeues once */
      readonly request_id: string;
      readonly callback: CallbackOverride | null;
      readonly now: string;
    };

export type WebhookDeliveryRejection = { readonly code: 'MESSAGE_NOT_FOUND'; readonly message: string };

export interface QueuedMessage {
  readonly message_id: string;
  readonly event_type: string;
  readonly payload: Record<string, unknown>;
  readonly status: 'pending' | 'delivered' | 'abandoned';
  /** attempts made in the current round (a requeue starts a new round) */
  readonly attempts: number;
  /** when the next attempt is due, while pending */
  readonly next_attempt_at: string | null;
  readonly request_ids: readonly string[];
  /** a callback retry's own URL, method and secret, for this round */
  readonly callback: CallbackOverride | null;
  /** the claim of the next attempt (sent, or being sent), until its result is recorded */
  readonly claim: { readonly attempt: number; readonly owner: string; readonly until: string } | null;
}

export type WebhookDeliveryState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly target: DeliveryTarget;
      readonly subject: string;
      readonly team_id: string;
      /** in the order they were queued */
      readonly messages: readonly QueuedMessage[];
    };

type Present = Extract<WebhookDeliveryState, { kind: 'present' }>;

const initialState = (): WebhookDeliveryState => ({ kind: 'absent' });
const emit = (...events: WebhookDeliveryEvent[]) => E.right<WebhookDeliveryRejection, readonly WebhookDeliveryEvent[]>(events);
const noEvents = emit();

export const isSuccess = (result: AttemptResult): boolean => 'status_code' in result && result.status_code >= 200 && result.status_code < 300;

/** Messages go out in order: only the oldest pending one may be attempted. */
export const headOf = (state: WebhookDeliveryState): QueuedMessage | null =>
  state.kind === 'present' ? (state.messages.find((m) => m.status === 'pending') ?? null) : null;

const routingOf = (state: Present, messageId: string) => ({ target: state.target, subject: state.subject, team_id: state.team_id, message_id: messageId });

const recordAttempt = (state: Present, command: Extract<WebhookDeliveryCommand, { type: 'RecordAttempt' }>) => {
  const message = state.messages.find((m) => m.message_id === command.message_id);
  if (!message || command.attempt !== message.attempts + 1) return noEvents;
  const isHead = headOf(state)?.message_id === message.message_id;
  // Only the head is ever sent; a message abandoned while its attempt was on the way keeps the attempt
  // on record (it was sent) and nothing more.
  if (message.status === 'pending' && !isHead) return noEvents;
  const routing = routingOf(state, message.message_id);
  const succeeded = isSuccess(command.result);
  const open = message.status === 'pending';
  const wait = succeeded || !open ? null : waitAfterFailedAttempt(state.target.kind, command.attempt, command.jitter);
  const attempted: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryAttempted',
    data: {
      ...routing,
      event_type: message.event_type,
      attempt: command.attempt,
      url: command.url,
      status_code: 'status_code' in command.result ? command.result.status_code : null,
      error: 'error' in command.result ? command.result.error : null,
      duration_ms: command.duration_ms,
      succeeded,
      next_attempt_at: wait === null ? null : new Date(toMillis(command.now) + wait).toISOString(),
      at: command.now,
    },
  };
  if (!open) return emit(attempted);
  if (succeeded) return emit(attempted, { type: 'WebhookDelivered', data: { ...routing, attempts: command.attempt, at: command.now } });
  if (wait === null) return emit(attempted, { type: 'WebhookDeliveryAbandoned', data: { ...routing, reason: 'retries_exhausted', at: command.now } });
  return emit(attempted);
};

const decide = (command: WebhookDeliveryCommand, state: WebhookDeliveryState) => {
  if (command.type === 'QueueMessage') {
    // Queued once per message and target, however often the event that caused it is seen again.
    if (state.kind === 'present' && state.messages.some((m) => m.message_id === command.message_id)) return noEvents;
    const { type: _type, now, ...data } = command;
    return emit({ type: 'WebhookMessageQueued', data: { ...data, at: now } });
  }
  if (state.kind === 'absent') {
    return command.type === 'Requeue' ? E.left<WebhookDeliveryRejection, readonly WebhookDeliveryEvent[]>({ code: 'MESSAGE_NOT_FOUND', message: 'Nothing was sent for this bot yet' }) : noEvents;
  }
  switch (command.type) {
    case 'RecordAttempt':
      return recordAttempt(state, command);
    case 'ClaimAttempt': {
      const head = headOf(state);
      if (head === null || head.message_id !== command.message_id || command.attempt !== head.attempts + 1) return noEvents;
      const claim = head.claim;
      if (claim !== null && claim.owner !== command.owner && toMillis(claim.until) > toMillis(command.now)) return noEvents;
      const { type: _type, now, message_id, ...data } = command;
      return emit({ type: 'WebhookAttemptStarted', data: { ...routingOf(state, message_id), ...data, at: now } });
    }
    case 'AbandonPending':
      return emit(
        ...state.messages
          .filter((m) => m.status === 'pending')
          .map((m): WebhookDeliveryEvent => ({ type: 'WebhookDeliveryAbandoned', data: { ...routingOf(state, m.message_id), reason: command.reason, at: command.now } })),
      );
    case 'Requeue': {
      const message = state.messages.find((m) => m.message_id === command.message_id);
      if (!message) return E.left<WebhookDeliveryRejection, readonly WebhookDeliveryEvent[]>({ code: 'MESSAGE_NOT_FOUND', message: 'No such message was sent' });
      // Already on its way (or this very request was taken): nothing more to do.
      if (message.status === 'pending' || message.request_ids.includes(command.request_id)) return noEvents;
      return emit({
        type: 'WebhookMessageRequeued',
        data: { ...routingOf(state, message.message_id), request_id: command.request_id, callback: command.callback, at: command.now },
      });
    }
  }
};

const updateMessage = (state: Present, messageId: string, change: (m: QueuedMessage) => QueuedMessage): Present => ({
  ...state,
  messages: state.messages.map((m) => (m.message_id === messageId ? change(m) : m)),
});

const evolve = (state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState => {
  if (event.type === 'WebhookMessageQueued') {
    const { target, subject, team_id, message_id, event_type, payload, callback, at } = event.data;
    const message: QueuedMessage = { message_id, event_type, payload, status: 'pending', attempts: 0, next_attempt_at: at, request_ids: [], callback, claim: null };
    return state.kind === 'present' ? { ...state, messages: [...state.messages, message] } : { kind: 'present', target, subject, team_id, messages: [message] };
  }
  if (state.kind === 'absent') return state;
  const { message_id } = event.data;
  switch (event.type) {
    case 'WebhookAttemptStarted':
      return updateMessage(state, message_id, (m) => ({ ...m, claim: { attempt: event.data.attempt, owner: event.data.owner, until: event.data.claimed_until } }));
    case 'WebhookDeliveryAttempted':
      return updateMessage(state, message_id, (m) => ({ ...m, attempts: event.data.attempt, next_attempt_at: event.data.next_attempt_at, claim: null }));
    case 'WebhookDelivered':
      return updateMessage(state, message_id, (m) => ({ ...m, status: 'delivered', next_attempt_at: null }));
    case 'WebhookDeliveryAbandoned':
      return updateMessage(state, message_id, (m) => ({ ...m, status: 'abandoned', next_attempt_at: null }));
    case 'WebhookMessageRequeued':
      return updateMessage(state, message_id, (m) => ({
        ...m,
        status: 'pending',
        attempts: 0,
        next_attempt_at: event.data.at,
        request_ids: [...m.request_ids, event.data.request_id],
        callback: event.data.callback,
        claim: null,
      }));
  }
};

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState, WebhookDeliveryRejection> = {
  decide,
  evolve,
  initialState,
};
