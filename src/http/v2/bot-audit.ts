import { redactSealed } from '../../adapters/crypto/secret-box';
import type { RecordedEvent } from '../../adapters/event-store/port';

const REDACTED = '[redacted]';
const WORKER_FIELDS: ReadonlySet<string> = new Set(['worker_id', 'from_worker_id']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A bot's history as its team may see it. Kept as recorded, except what is secret or internal:
 * sealed values become `[encrypted]`; a transcription provider's `custom_params` keep their names but not
 * their values (providers take credentials and callback tokens there); the instances that ran the bot
 * (their host names by default) become `instance-1`, `instance-2`… in the order the bot met them, so that
 * a takeover still shows.
 */
export const auditOfBot = (events: readonly RecordedEvent[]) => {
  const instances = new Map<string, string>();
  const instanceName = (workerId: string): string => {
    if (!instances.has(workerId)) instances.set(workerId, `instance-${instances.size + 1}`);
    return instances.get(workerId)!;
  };
  const redact = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(redact);
    if (!isRecord(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => {
        if (WORKER_FIELDS.has(key) && typeof field === 'string') return [key, instanceName(field)];
        if (key === 'custom_params' && isRecord(field)) return [key, Object.fromEntries(Object.keys(field).map((name) => [name, REDACTED]))];
        return [key, redact(field)];
      }),
    );
  };
  return events.map((e) => ({
    type: e.type,
    revision: Number(e.revision),
    position: e.position.toString(),
    recorded_at: e.recordedAt.toISOString(),
    data: redact(redactSealed(e.data)),
  }));
};
