import type * as E from 'fp-ts/Either';
import { webhookDeliveryDecider, type WebhookDeliveryCommand, type WebhookDeliveryRejection, type WebhookDeliveryState } from '../domain/webhooks/webhook-delivery-decider';
import { WebhookDeliveryEvent } from '../domain/webhooks/webhook-delivery-events';
import {
  webhookEndpointDecider, type WebhookEndpointCommand, type WebhookEndpointRejection, type WebhookEndpointState,
} from '../domain/webhooks/webhook-endpoint-decider';
import { WebhookEndpointEvent, webhookEndpointStreamName } from '../domain/webhooks/webhook-endpoint-events';
import type { CommandDeps } from './command-deps';
import { handleCommand, loadState, type Handled } from './handle-command';

type Store = Pick<CommandDeps, 'eventStore'>;

export const handleWebhookEndpointCommand = (
  deps: Store,
  endpointId: string,
  command: WebhookEndpointCommand,
): Promise<E.Either<WebhookEndpointRejection, Handled<WebhookEndpointEvent, WebhookEndpointState>>> =>
  handleCommand(deps.eventStore, webhookEndpointStreamName(endpointId), webhookEndpointDecider, WebhookEndpointEvent, command);

export const loadWebhookEndpoint = (deps: Store, endpointId: string): Promise<WebhookEndpointState> =>
  loadState(deps.eventStore, webhookEndpointStreamName(endpointId), webhookEndpointDecider, WebhookEndpointEvent);

export const handleDeliveryCommand = (
  deps: Store,
  stream: string,
  command: WebhookDeliveryCommand,
): Promise<E.Either<WebhookDeliveryRejection, Handled<WebhookDeliveryEvent, WebhookDeliveryState>>> =>
  handleCommand(deps.eventStore, stream, webhookDeliveryDecider, WebhookDeliveryEvent, command);

export const loadDeliveries = (deps: Store, stream: string): Promise<WebhookDeliveryState> =>
  loadState(deps.eventStore, stream, webhookDeliveryDecider, WebhookDeliveryEvent);

