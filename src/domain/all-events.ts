import * as t from 'io-ts';
import { BotEvent } from './bot/bot-events';
import { CalendarEvent } from './calendar/calendar-events';
import { DeduplicationKeyEvent } from './deduplication-key/deduplication-key-events';
import { InstanceEvent } from './instances/instance-events';
import { MeetingLockEvent } from './meeting-lock/meeting-lock-events';
import { LoginEvent } from './signed-in-logins/login-events';
import { PoolEvent } from './signed-in-logins/pool-events';
import { WorkspaceEvent } from './signed-in-logins/workspace-events';
import { StorageEvent } from './storage/storage-events';
import { TeamEvent } from './team/team-events';
import { VcCredentialEvent } from './vc-credentials/vc-credential-events';
import { WebhookDeliveryEvent } from './webhooks/webhook-delivery-events';
import { WebhookEndpointEvent } from './webhooks/webhook-endpoint-events';

export const DomainEvent = t.union([
  BotEvent, TeamEvent, MeetingLockEvent, StorageEvent, WebhookEndpointEvent, WebhookDeliveryEvent, InstanceEvent, DeduplicationKeyEvent, CalendarEvent,
  WorkspaceEvent, LoginEvent, PoolEvent,
  VcCredentialEvent,
]);
export type DomainEvent = t.TypeOf<typeof DomainEvent>;
export type DomainEventType = DomainEvent['type'];

interface TaggedCodec {
  readonly props: { readonly type: { readonly value: string } };
}

/** Every event type the domain knows; an event of another type belongs to a part that is not ours. */
export const knownEventTypes: ReadonlySet<string> = new Set(
  DomainEvent.types.flatMap((codec) => ('types' in codec ? (codec.types as readonly TaggedCodec[]) : [codec as TaggedCodec]).map((c) => c.props.type.value)),
);
