import * as E from 'fp-ts/Either';
import { CalendarProviderError, type ProviderSession } from '../../adapters/calendar-providers/port';
import { handleCalendarCommand } from '../../commands/calendar-commands';
import { nowIso } from '../../commands/command-deps';
import type { CalendarCommand, PresentCalendar } from '../../domain/calendar/calendar-decider';
import type { PushChannel } from '../../domain/calendar/calendar-events';
import { toMillis } from '../../domain/codec-helpers';
import { calendarChannelId } from '../../domain/calendar/push-channel-id';
import type { CalendarSyncDeps, CalendarSyncOptions } from './calendar-sync-deps';

export interface ChannelUpkeep {
  readonly position: bigint | null;
  /** when the channel needs renewing (or opening again), if before the next periodic round */
  readonly nextCheckMs: number | null;
  /** the provider refused a channel: no new attempt before this */
  readonly refusedUntilMs: number | null;
}

/** Where a provider posts the notices of a channel: the channel id rides in Graph's URL and in Google's headers. */
const addressOf = (deps: CalendarSyncDeps, platform: PresentCalendar['platform'], channelId: string): string =>
  platform === 'google' ? `${deps.publicUrl()}/calendar-push/google` : `${deps.publicUrl()}/calendar-push/microsoft?channel=${encodeURIComponent(channelId)}`;

const lifetimeOf = (options: CalendarSyncOptions, platform: PresentCalendar['platform']) =>
  platform === 'google' ? { lifetimeMs: options.googleChannelTtlMs, renewBeforeMs: options.googleRenewBeforeMs } : { lifetimeMs: options.graphSubscriptionMs, renewBeforeMs: options.graphRenewBeforeMs };

/**
 * Keeps one push channel open per calendar: opens it after a sync, extends it (Graph) or replaces it
 * (Google) before it ends, and records every change, so that after a restart the service knows its
 * channels and their tokens check out. A refusal is noted and tried again later; periodic rounds cover.
 */
export const keepPushChannel = async (
  deps: CalendarSyncDeps,
  options: CalendarSyncOptions,
  state: PresentCalendar,
  session: ProviderSession,
  refusedUntilMs: number | null,
): Promise<ChannelUpkeep> => {
  const provider = deps.providers[state.platform];
  const { lifetimeMs, renewBeforeMs } = lifetimeOf(options, state.platform);
  const nowMs = deps.commands.clock().getTime();
  let position: bigint | null = null;
  const run = async (command: CalendarCommand) => {
    const result = await handleCalendarCommand(deps.commands, state.calendar_id, command);
    if (E.isRight(result) && result.right.position !== null) position = result.right.position;
  };
  const close = async (channel: PushChannel) => {
    try {
      await provider.closeChannel(session, channel);
    } catch (err) {
      // It ends on its own at its expiry; until then its notices only ask for a sync.
      deps.log.warn({ err, calendar_id: state.calendar_id, channel_id: channel.channel_id }, 'could not stop a push channel at the provider');
    }
    await run({ type: 'ClosePushChannel', channel_id: channel.channel_id, now: nowIso(deps.commands) });
  };

  const live = [...state.channels].filter((c) => toMillis(c.expires_at) > nowMs).sort((a, b) => toMillis(b.expires_at) - toMillis(a.expires_at));
  for (const expired of state.channels.filter((c) => toMillis(c.expires_at) <= nowMs)) await run({ type: 'ClosePushChannel', channel_id: expired.channel_id, now: nowIso(deps.commands) });
  const [keep, ...extra] = live;
  for (const channel of extra) await close(channel);
  if (keep && toMillis(keep.expires_at) - nowMs > renewBeforeMs) {
    return { position, nextCheckMs: toMillis(keep.expires_at) - renewBeforeMs, refusedUntilMs: null };
  }
  if (refusedUntilMs !== null && refusedUntilMs > nowMs) return { position, nextCheckMs: refusedUntilMs, refusedUntilMs };

  const expiresAt = new Date(nowMs + lifetimeMs).toISOString();
  try {
    if (keep) {
      const renewed = await provider.renewChannel(session, keep, expiresAt);
      if (renewed) {
        await run({ type: 'RenewPushChannel', channel_id: keep.channel_id, expires_at: renewed.expires_at, now: nowIso(deps.commands) });
        return { position, nextCheckMs: toMillis(renewed.expires_at) - renewBeforeMs, refusedUntilMs: null };
      }
    }
    const channelId = calendarChannelId(state.calendar_id, deps.commands.newId());
    const opened = await provider.openChannel(session, state.provider_calendar_id, {
      channel_id: channelId,
      token: deps.signer.calendarChannelToken(channelId),
      address: addressOf(deps, state.platform, channelId),
      expires_at: expiresAt,
      ttl_seconds: Math.floor(lifetimeMs / 1000),
    });
    await run({ type: 'OpenPushChannel', channel: opened, now: nowIso(deps.commands) });
    // The new one is open before the old one stops: no change falls between them.
    if (keep) await close(keep);
    return { position, nextCheckMs: toMillis(opened.expires_at) - renewBeforeMs, refusedUntilMs: null };
  } catch (err) {
    if (!(err instanceof CalendarProviderError)) throw err;
    await run({ type: 'NotePushUnavailable', message: err.message, now: nowIso(deps.commands) });
    deps.log.warn({ calendar_id: state.calendar_id, message: err.message }, 'the provider would not open a push channel; periodic syncs only for now');
    const retryAt = nowMs + options.pushRetryMs;
    return { position, nextCheckMs: retryAt, refusedUntilMs: retryAt };
  }
};

/** A removed calendar's channels are stopped at the provider (best effort) and recorded closed. */
export const closeAllChannels = async (deps: CalendarSyncDeps, state: PresentCalendar, session: ProviderSession | null): Promise<bigint | null> => {
  let position: bigint | null = null;
  for (const channel of state.channels) {
    if (session !== null) {
      try {
        await deps.providers[state.platform].closeChannel(session, channel);
      } catch (err) {
        deps.log.warn({ err, calendar_id: state.calendar_id, channel_id: channel.channel_id }, 'could not stop a push channel of a removed calendar; it ends at its expiry');
      }
    }
    const result = await handleCalendarCommand(deps.commands, state.calendar_id, { type: 'ClosePushChannel', channel_id: channel.channel_id, now: nowIso(deps.commands) });
    if (E.isRight(result) && result.right.position !== null) position = result.right.position;
  }
  return position;
};
