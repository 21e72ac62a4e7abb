import { EventStoreDbEventStore } from './eventstoredb-event-store';
import type { EventStore } from './port';
import { SqliteEventStore } from './sqlite-event-store';

export interface EventStoreConfig {
  /** Set: EventStoreDB at this connection string. Unset: the embedded SQLite file. */
  readonly eventstoreUrl?: string;
  readonly sqlitePath: string;
}

export const openEventStore = async (config: EventStoreConfig): Promise<EventStore> =>
  config.eventstoreUrl ? new EventStoreDbEventStore(config.eventstoreUrl) : new SqliteEventStore(config.sqlitePath);
