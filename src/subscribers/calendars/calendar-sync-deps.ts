import type Logger from 'bunyan';
import type { CalendarProviders } from '../../adapters/calendar-providers';
import type { ProviderSession } from '../../adapters/calendar-providers/port';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import type { Signer } from '../../adapters/signing/signer';
import { handleCalendarCommand } from '../../commands/calendar-commands';
import { nowIso, type CommandDeps } from '../../commands/command-deps';
import type { PresentCalendar } from '../../domain/calendar/calendar-decider';

export interface CalendarSyncOptions {
  /** the fallback: every calendar is read again this often, push or no push */
  readonly periodicResyncMs: number;
  /** the first wait after a provider was unavailable (doubled after each failure in a row, up to the period) */
  readonly retryAfterFailureMs: number;
  /** calendars synced at once */
  readonly concurrency: number;
  /** how often due calendars are looked for */
  readonly pollMs: number;
  /** Google channels live a week and are replaced a day before they end */
  readonly googleChannelTtlMs: number;
  readonly googleRenewBeforeMs: number;
  /** Graph subscriptions are asked for two days (the cap is 4 230 minutes) and extended 12 hours before they end */
  readonly graphSubscriptionMs: number;
  readonly graphRenewBeforeMs: number;
  /** after a provider refused to open a channel, when to try again */
  readonly pushRetryMs: number;
}

const HOUR = 3_600_000;

export const defaultCalendarSyncOptions: CalendarSyncOptions = {
  periodicResyncMs: 15 * 60_000,
  retryAfterFailureMs: 30_000,
  concurrency: 4,
  pollMs: 1000,
  googleChannelTtlMs: 7 * 24 * HOUR,
  googleRenewBeforeMs: 24 * HOUR,
  graphSubscriptionMs: 48 * HOUR,
  graphRenewBeforeMs: 12 * HOUR,
  pushRetryMs: HOUR,
};

export interface CalendarSyncDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly providers: CalendarProviders;
  readonly secretBox: SecretBox;
  readonly signer: Signer;
  /** the service's public address: where providers post their notices */
  readonly publicUrl: () => string;
  readonly log: Logger;
}

/** The account's credentials, opened from the log for one round; a rotated refresh token is recorded at once. */
export const sessionOf = (deps: CalendarSyncDeps, state: PresentCalendar): ProviderSession => ({
  credentials: {
    client_id: state.oauth_client_id,
    client_secret: deps.secretBox.open(state.oauth_client_secret),
    refresh_token: deps.secretBox.open(state.refresh_token),
  },
  onRefreshTokenRotated: async (refreshToken) => {
    try {
      await handleCalendarCommand(deps.commands, state.calendar_id, { type: 'RotateRefreshToken', refresh_token: deps.secretBox.seal(refreshToken), now: nowIso(deps.commands) });
    } catch (err) {
      deps.log.error({ err, calendar_id: state.calendar_id }, 'could not record the rotated refresh token; the previous one is used until it stops working');
    }
  },
});
