import type Logger from 'bunyan';
import { loadCalendar } from '../../commands/calendar-commands';
import type { CommandDeps } from '../../commands/command-deps';
import { followLog } from '../follow-log';

/**
 * A calendar's next sync round as the log shows it, for an api instance that does not run the sync: its
 * holder, wherever it runs, records the end of every round (CalendarSynced, CalendarSyncFailed). Called
 * before a request about the calendar is recorded (its connection, a resync), with a position before that
 * request; resolves with the position of the first round's end that answers the request (its `served`
 * reaches the requests the calendar counted once the request was recorded) or that failed for now after
 * it, or undefined after `timeoutMs`.
 */
export const nextRoundInLog = (deps: { readonly commands: CommandDeps; readonly log: Logger }, from: bigint | null, calendarId: string, timeoutMs: number): Promise<bigint | undefined> =>
  new Promise((resolve) => {
    /** how many requests the calendar had counted once ours was seen; null until then */
    let requests: number | null = null;
    let done = false;
    const finish = (position: bigint | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void subscription.stop();
      resolve(position);
    };
    const subscription = followLog(deps.commands.eventStore, { name: `calendar-round-${calendarId}`, fromPosition: from, log: deps.log }, async (event, recorded) => {
      if (event.type === 'CalendarConnected' || event.type === 'CalendarSyncRequested') {
        if (event.data.calendar_id !== calendarId || requests !== null) return;
        const state = await loadCalendar(deps.commands, calendarId);
        requests = state.kind === 'present' ? state.requests : 1;
      } else if (event.type === 'CalendarSynced' || event.type === 'CalendarSyncFailed') {
        if (event.data.calendar_id !== calendarId || requests === null) return;
        const forNow = event.type === 'CalendarSyncFailed' && event.data.reason === 'provider_unavailable';
        if (event.data.served >= requests || forNow) finish(recorded.position);
      }
    });
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    timer.unref();
  });
