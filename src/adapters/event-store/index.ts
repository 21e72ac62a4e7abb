import { EventStoreDbEventStore } from './eventstoredb-event-store';
import type { EventStore } from './port';
import { PostgresEventStore } from './postgres-event-store';
import { SqliteEventStore } from './sqlite-event-store';

export interface EventStoreConfig {
  /** Set: EventStoreDB at this connection string. */
  readonly eventstoreUrl?: string | undefined;
  /** Set: PostgreSQL at this URL (DATABASE_URL). Neither set: the embedded SQLite file. */
  readonly databaseUrl?: string | undefined;
  readonly sqlitePath: string;
}

export type EventStoreKind = 'postgresql' | 'eventstoredb' | 'sqlite';

export const eventStoreKind = (config: Omit<EventStoreConfig, 'sqlitePath'>): EventStoreKind => {
  if (config.databaseUrl && config.eventstoreUrl) {
    throw new Error('DATABASE_URL (PostgreSQL) and EVENTSTORE_URL (EventStoreDB) both name the event store: set only one of them');
  }
  return config.databaseUrl ? 'postgresql' : config.eventstoreUrl ? 'eventstoredb' : 'sqlite';
};

/** Opens the configured store; a server that cannot be reached fails here (PostgreSQL) or on first use (EventStoreDB). */
export const openEventStore = async (config: EventStoreConfig): Promise<EventStore> => {
  switch (eventStoreKind(config)) {
    case 'postgresql':
      return PostgresEventStore.connect(config.databaseUrl!);
    case 'eventstoredb':
      return new EventStoreDbEventStore(config.eventstoreUrl!);
    case 'sqlite':
      return new SqliteEventStore(config.sqlitePath);
  }
};
