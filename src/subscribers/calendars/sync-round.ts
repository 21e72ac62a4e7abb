import * as E from 'fp-ts/Either';
import { CalendarProviderError, type ProviderErrorKind, type ProviderItem, type ProviderSession, type SyncStart } from '../../adapters/calendar-providers/port';
import { changesOf, handleCalendarCommand } from '../../commands/calendar-commands';
import { nowIso } from '../../commands/command-deps';
import type { CalendarCommand, PresentCalendar } from '../../domain/calendar/calendar-decider';
import type { SyncFailure, SyncType, SyncWindow } from '../../domain/calendar/calendar-events';
import { syncWindowAt, windowNeedsRoll } from '../../domain/calendar/sync-window';
import type { CalendarSyncDeps } from './calendar-sync-deps';

export type RoundResult =
  | { readonly ok: true; readonly position: bigint | null }
  | { readonly ok: false; readonly failure: SyncFailure; readonly position: bigint | null };

const failureOf = (kind: ProviderErrorKind): SyncFailure => {
  switch (kind) {
    case 'credentials_revoked':
    case 'invalid_client':
      return 'credentials_revoked';
    case 'access_denied':
      return 'access_denied';
    case 'calendar_not_found':
      return 'calendar_not_found';
    default:
      return 'provider_unavailable';
  }
};

/**
 * One sync round of a calendar: incremental from its cursor, or full (the first round, a requested one,
 * a lost sync state, or a window running out). Each page is recorded as it arrives, so a round cut short
 * by a crash is simply done again (what was recorded is not recorded twice). The round answers the
 * requests counted when it began.
 */
export const syncCalendar = async (deps: CalendarSyncDeps, state: PresentCalendar, session: ProviderSession): Promise<RoundResult> => {
  const provider = deps.providers[state.platform];
  const serves = state.requests;
  let position: bigint | null = null;
  const run = async (command: CalendarCommand) => {
    const result = await handleCalendarCommand(deps.commands, state.calendar_id, command);
    if (E.isRight(result) && result.right.position !== null) position = result.right.position;
  };

  const read = async (start: SyncStart, seen: Set<string> | null) =>
    provider.sync(session, state.provider_calendar_id, start, async (items: readonly ProviderItem[]) => {
      for (const item of items) if (item.kind === 'upsert') seen?.add(item.event.provider_event_id);
      if (items.length > 0) await run({ type: 'RecordChanges', changes: changesOf(state.calendar_id, items), now: nowIso(deps.commands) });
    });

  const complete = (sync_type: SyncType, cursor: string, window: SyncWindow, seen: ReadonlySet<string> | null) =>
    run({ type: 'CompleteSync', sync_type, cursor, window, seen, serves, now: nowIso(deps.commands) });

  const fullRound = async () => {
    const window = syncWindowAt(deps.commands.clock().getTime());
    const seen = new Set<string>();
    const { cursor } = await read({ kind: 'full', window }, seen);
    await complete(state.cursor === null ? 'initial' : 'full', cursor, window, seen);
  };

  try {
    const full = state.cursor === null || state.window === null || state.full_requested || windowNeedsRoll(state.window, deps.commands.clock().getTime());
    if (full) {
      await fullRound();
    } else {
      try {
        const { cursor } = await read({ kind: 'incremental', cursor: state.cursor! }, null);
        await complete('incremental', cursor, state.window!, null);
      } catch (err) {
        if (!(err instanceof CalendarProviderError) || err.kind !== 'sync_token_expired') throw err;
        deps.log.info({ calendar_id: state.calendar_id }, 'the provider expired the sync state: reading the calendar again in full');
        await fullRound();
      }
    }
    return { ok: true, position };
  } catch (err) {
    if (!(err instanceof CalendarProviderError)) throw err;
    const failure = failureOf(err.kind);
    await run({ type: 'FailSync', reason: failure, message: err.message, serves, now: nowIso(deps.commands) });
    deps.log.warn({ calendar_id: state.calendar_id, reason: failure, message: err.message }, 'calendar sync failed');
    return { ok: false, failure, position };
  }
};
