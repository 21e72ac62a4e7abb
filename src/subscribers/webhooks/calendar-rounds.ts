import type { CalendarEvent } from '../../domain/calendar/calendar-events';
import { calendarFailureMessages, calendarRoundMessages, type RoundChange } from '../../domain/webhooks/calendar-webhook-messages';
import type { OutgoingMessage } from '../../domain/webhooks/bot-webhook-messages';
import type { CalendarPlatform } from '../../domain/calendar/calendar-events';

interface OpenRound {
  /** the position of the round's first change: the checkpoint must not pass it while the round is open */
  readonly firstPosition: bigint;
  readonly changes: RoundChange[];
}

/**
 * The changes of each calendar's sync round, gathered as they are appended until the round's
 * `CalendarSynced` turns them into messages. Kept in memory only; the subscriber that owns it saves no
 * checkpoint past the first change of an open round, so a restart gathers the round again from the log.
 */
export class CalendarRounds {
  private readonly open = new Map<string, OpenRound>();

  /** Whether the event may complete messages (the others only gather changes). */
  sends(event: CalendarEvent): boolean {
    return event.type === 'CalendarSynced' || event.type === 'CalendarSyncFailed';
  }

  /** The messages an event completes (none for most); `platform` is the calendar's, needed by those that send. */
  messagesOf(event: CalendarEvent, position: bigint, platform: CalendarPlatform | null): readonly OutgoingMessage[] {
    switch (event.type) {
      case 'CalendarEventUpserted':
        this.add(event.data.calendar_id, position, { kind: 'upserted', data: slim(event.data) });
        return [];
      case 'CalendarEventCancelled':
        this.add(event.data.calendar_id, position, { kind: 'cancelled', data: event.data });
        return [];
      case 'CalendarSynced': {
        const round = this.open.get(event.data.calendar_id);
        this.open.delete(event.data.calendar_id);
        return calendarRoundMessages(event.data, round?.changes ?? []);
      }
      case 'CalendarSyncFailed':
        return platform === null ? [] : calendarFailureMessages(event.data, platform);
      case 'CalendarRemoved':
        this.open.delete(event.data.calendar_id);
        return [];
      default:
        return [];
    }
  }

  /** The oldest position an open round still needs after a restart. */
  oldestOpen(): bigint | undefined {
    let oldest: bigint | undefined;
    for (const round of this.open.values()) if (oldest === undefined || round.firstPosition < oldest) oldest = round.firstPosition;
    return oldest;
  }

  private add(calendarId: string, position: bigint, change: RoundChange): void {
    const round = this.open.get(calendarId) ?? { firstPosition: position, changes: [] };
    round.changes.push(change);
    this.open.set(calendarId, round);
  }
}

/** What a message says of an event: its provider record (`raw`) stays out of memory. */
const slim = (data: Extract<RoundChange, { kind: 'upserted' }>['data']): Extract<RoundChange, { kind: 'upserted' }>['data'] => ({
  ...data,
  event: { ...data.event, raw: {}, attendees: [] },
});
