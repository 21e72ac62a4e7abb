import { createHash } from 'node:crypto';
import type * as E from 'fp-ts/Either';
import type { ProviderEvent, ProviderItem } from '../adapters/calendar-providers/port';
import { calendarDecider, type CalendarCommand, type CalendarRejection, type CalendarState, type ProviderChange } from '../domain/calendar/calendar-decider';
import { CalendarEvent, calendarStreamName, type CalendarEventData } from '../domain/calendar/calendar-events';
import type { CommandDeps } from './command-deps';
import { handleCommand, loadState, type Handled } from './handle-command';

type Store = Pick<CommandDeps, 'eventStore'>;

export type CalendarCommandResult = E.Either<CalendarRejection, Handled<CalendarEvent, CalendarState>>;

export const handleCalendarCommand = (deps: Store, calendarId: string, command: CalendarCommand): Promise<CalendarCommandResult> =>
  handleCommand(deps.eventStore, calendarStreamName(calendarId), calendarDecider, CalendarEvent, command);

export const loadCalendar = (deps: Store, calendarId: string): Promise<CalendarState> =>
  loadState(deps.eventStore, calendarStreamName(calendarId), calendarDecider, CalendarEvent);

/**
 * The event's id in this service: derived from the calendar and the provider's id, so that the same
 * event keeps its id through every sync, a full resync after a lost sync token, and a restart.
 */
export const calendarEventUuid = (calendarId: string, providerEventId: string): string => nameBasedUuid('calendar-event', calendarId, providerEventId);

/** A UUID (version 5 layout over SHA-256) named by its parts: the same parts give the same id on every retry. */
export const nameBasedUuid = (...parts: string[]): string => {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** Everything the service keeps of the event, hashed: the same event read again has the same fingerprint. */
const fingerprintOf = (event: ProviderEvent): string => createHash('sha256').update(JSON.stringify(event)).digest('base64url');

export const eventDataOf = (calendarId: string, event: ProviderEvent): CalendarEventData => ({
  ...event,
  attendees: [...event.attendees],
  event_id: calendarEventUuid(calendarId, event.provider_event_id),
  fingerprint: fingerprintOf(event),
});

export const changesOf = (calendarId: string, items: readonly ProviderItem[]): ProviderChange[] =>
  items.map((item) => (item.kind === 'upsert' ? { kind: 'upsert', event: eventDataOf(calendarId, item.event) } : item));
