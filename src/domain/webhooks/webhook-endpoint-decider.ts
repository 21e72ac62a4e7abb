import * as E from 'fp-ts/Either';
import type { Sealed } from '../codec-helpers';
import { toMillis } from '../codec-helpers';
import type { Decider } from '../decider';
import type { WebhookEndpointEvent } from './webhook-endpoint-events';

/** An endpoint failing for this long without a single success is turned off (DESIGN.md). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
/** After a rotation, the previous secret still signs attempts for this long, so receivers can switch over. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export interface EndpointChanges {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly description?: string | null;
  readonly enabled?: boolean;
}

export type WebhookEndpointCommand =
  | {
      readonly type: 'AddEndpoint';
      readonly endpoint_id: string;
      readonly team_id: string;
      readonly url: string;
      readonly events: readonly string[];
      readonly description: string | null;
      readonly secret: Sealed;
      readonly now: string;
    }
  | { readonly type: 'UpdateEndpoint'; readonly team_id: string; readonly changes: EndpointChanges; readonly now: string }
  | { readonly type: 'RotateSecret'; readonly team_id: string; readonly secret: Sealed; readonly now: string }
  | { readonly type: 'DeleteEndpoint'; readonly team_id: string; readonly now: string }
  /** After a failed attempt: `failing_since` is when the endpoint last stopped succeeding. */
  | { readonly type: 'DisableFailingEndpoint'; readonly failing_since: string; readonly now: string };

export type WebhookEndpointRejection = { readonly code: 'WEBHOOK_NOT_FOUND'; readonly message: string };

export type WebhookEndpointState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly endpoint_id: string;
      readonly team_id: string;
      readonly url: string;
      readonly events: readonly string[];
      readonly description: string | null;
      readonly enabled: boolean;
      readonly deleted: boolean;
      readonly secret: Sealed;
      readonly previous: { readonly secret: Sealed; readonly valid_until: string } | null;
    };

type Present = Extract<WebhookEndpointState, { kind: 'present' }>;

const initialState = (): WebhookEndpointState => ({ kind: 'absent' });
const emit = (...events: WebhookEndpointEvent[]) => E.right<WebhookEndpointRejection, readonly WebhookEndpointEvent[]>(events);
const noEvents = emit();
const notFound = E.left<WebhookEndpointRejection, readonly WebhookEndpointEvent[]>({ code: 'WEBHOOK_NOT_FOUND', message: 'Webhook endpoint not found' });

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A team only ever sees its own endpoints: another team's, or a deleted one, does not exist for it. */
const ownedBy = (state: WebhookEndpointState, teamId: string): state is Present =>
  state.kind === 'present' && !state.deleted && state.team_id === teamId;

const update = (state: Present, command: Extract<WebhookEndpointCommand, { type: 'UpdateEndpoint' }>) => {
  const { changes } = command;
  const next = {
    url: changes.url ?? state.url,
    events: changes.events ? [...changes.events] : [...state.events],
    description: changes.description === undefined ? state.description : changes.description,
    enabled: changes.enabled ?? state.enabled,
  };
  const unchanged = next.url === state.url && sameList(next.events, state.events) && next.description === state.description && next.enabled === state.enabled;
  if (unchanged) return noEvents;
  return emit({ type: 'WebhookEndpointUpdated', data: { endpoint_id: state.endpoint_id, team_id: state.team_id, ...next, at: command.now } });
};

const decide = (command: WebhookEndpointCommand, state: WebhookEndpointState) => {
  if (command.type === 'AddEndpoint') {
    // The same id again is a retry of the same request.
    if (state.kind === 'present') return noEvents;
    const { type: _type, now, ...data } = command;
    return emit({ type: 'WebhookEndpointAdded', data: { ...data, events: [...data.events], at: now } });
  }
  if (command.type === 'DisableFailingEndpoint') {
    if (state.kind !== 'present' || state.deleted || !state.enabled) return noEvents;
    if (toMillis(command.now) - toMillis(command.failing_since) < DISABLE_AFTER_FAILING_MS) return noEvents;
    return emit({
      type: 'WebhookEndpointDisabled',
      data: { endpoint_id: state.endpoint_id, team_id: state.team_id, failing_since: command.failing_since, at: command.now },
    });
  }
  if (!ownedBy(state, command.team_id)) return notFound;
  const ids = { endpoint_id: state.endpoint_id, team_id: state.team_id };
  switch (command.type) {
    case 'UpdateEndpoint':
      return update(state, command);
    case 'RotateSecret':
      return emit({
        type: 'WebhookEndpointSecretRotated',
        data: { ...ids, secret: command.secret, previous_valid_until: new Date(toMillis(command.now) + PREVIOUS_SECRET_GRACE_MS).toISOString(), at: command.now },
      });
    case 'DeleteEndpoint':
      return emit({ type: 'WebhookEndpointDeleted', data: { ...ids, at: command.now } });
  }
};

const evolve = (state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState => {
  if (event.type === 'WebhookEndpointAdded') {
    const { endpoint_id, team_id, url, events, description, secret } = event.data;
    return { kind: 'present', endpoint_id, team_id, url, events, description, enabled: true, deleted: false, secret, previous: null };
  }
  if (state.kind === 'absent') return state;
  switch (event.type) {
    case 'WebhookEndpointUpdated': {
      const { url, events, description, enabled } = event.data;
      return { ...state, url, events, description, enabled };
    }
    case 'WebhookEndpointSecretRotated':
      return { ...state, secret: event.data.secret, previous: { secret: state.secret, valid_until: event.data.previous_valid_until } };
    case 'WebhookEndpointDisabled':
      return { ...state, enabled: false };
    case 'WebhookEndpointDeleted':
      return { ...state, deleted: true };
  }
};

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState, WebhookEndpointRejection> = {
  decide,
  evolve,
  initialState,
};

/** The secrets that sign an attempt made at `nowMs`: the current one, and the previous one during its grace. */
export const signingSecrets = (state: Present, nowMs: number): readonly Sealed[] =>
  state.previous && toMillis(state.previous.valid_until) > nowMs ? [state.secret, state.previous.secret] : [state.secret];
