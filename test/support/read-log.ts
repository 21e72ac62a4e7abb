import { openEventStore } from '../../src/adapters/event-store';
import type { RecordedEvent } from '../../src/adapters/event-store/port';

/** The whole shared log of a PostgreSQL database, as the service's own adapter reads it. */
export const readLog = async (databaseUrl: string): Promise<RecordedEvent[]> => {
  const store = await openEventStore({ databaseUrl, sqlitePath: '' });
  try {
    const all: RecordedEvent[] = [];
    for (;;) {
      const page = await store.readAll({ ...(all.length === 0 ? {} : { fromPosition: all.at(-1)!.position }), maxCount: 2000 });
      if (page.length === 0) return all;
      all.push(...page);
    }
  } finally {
    await store.close();
  }
};
