import * as E from 'fp-ts/Either';
import type { CalendarProviders } from '../../adapters/calendar-providers';
import type { ProviderSession, RawCalendar } from '../../adapters/calendar-providers/port';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import { handleCalendarCommand } from '../../commands/calendar-commands';
import { nowIso, type CommandDeps } from '../../commands/command-deps';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { CALENDARS, type CalendarView } from '../../projections/calendars/calendar-view';
import { WEBHOOK_ENDPOINTS } from '../../projections/webhooks/webhook-endpoint-view';
import { notFound, validationError } from '../api-error';
import { withinTeamLimit } from '../team-limit-guard';
import type { Caller } from '../app-context';
import type { CalendarCredentialsRequest, ConnectCalendarRequest } from '../codecs/calendar-requests';
import { checkWebhookTarget, type WebhookTargets } from '../v2/webhook-targets';
import { providerErrorToApiError } from './provider-errors';

/** What the API needs of the calendar sync worker: a round now, and word of the next one's end. */
export interface CalendarSyncControl {
  wake(calendarId: string): void;
  nextRound(calendarId: string, timeoutMs: number): Promise<bigint | null | undefined>;
}

export interface CalendarApiDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly secretBox: SecretBox;
  readonly webhookTargets: WebhookTargets;
  readonly calendarProviders: CalendarProviders;
  readonly calendarSync: CalendarSyncControl;
  /** meeting links of the local sandbox are meeting links (bots for calendar events decode like any bot) */
  readonly sandboxHosts: boolean;
}

/** A connection or a resync answers once its round is done and readable, if that takes less than this. */
export const ROUND_WAIT_MS = 20_000;

export const calendarNotFound = () => notFound('FST_ERR_CALENDAR_NOT_FOUND', 'Calendar not found');

const sessionOf = (request: CalendarCredentialsRequest): ProviderSession => ({
  credentials: { client_id: request.oauth_client_id, client_secret: request.oauth_client_secret, refresh_token: request.oauth_refresh_token },
});

/** The account's calendars, straight from the provider: nothing is stored. */
export const listRawCalendars = async (deps: CalendarApiDeps, request: CalendarCredentialsRequest): Promise<readonly RawCalendar[]> => {
  try {
    return await deps.calendarProviders[request.platform].listCalendars(sessionOf(request));
  } catch (err) {
    throw providerErrorToApiError(err, request.platform);
  }
};

/** A team's own calendar that it has not removed; anything else does not exist for it. */
export const findCalendarOfCaller = async (readStore: ReadStore, caller: Caller, calendarId: string): Promise<CalendarView> => {
  const view = (await readStore.get<CalendarView>(CALENDARS, calendarId))?.doc;
  if (!view || view.removed || view.team_id !== caller.team_id) throw calendarNotFound();
  return view;
};

const waitForRound = async (deps: CalendarApiDeps, round: Promise<bigint | null | undefined>): Promise<boolean> => {
  const position = await round;
  if (position === undefined) return false;
  await deps.projections.waitForPosition(position);
  return true;
};

/**
 * Connects one calendar of the account: the credentials are tried on the provider first (a refusal is a
 * 4xx and nothing is stored), then sealed and recorded, and the first sync runs at once. The answer waits
 * for that sync (bounded), so that its events can be listed right away.
 */
export const connectCalendar = async (deps: CalendarApiDeps, caller: Caller, apiKey: string, request: ConnectCalendarRequest, generation: 'legacy' | 'v2'): Promise<CalendarView> => {
  if (request.webhook_url !== null) await checkWebhookTarget(deps.webhookTargets, 'body/webhook_url', request.webhook_url);
  if (generation === 'legacy' && request.webhook_url === null) {
    const endpoints = await deps.readStore.count(WEBHOOK_ENDPOINTS, { team_id: caller.team_id, deleted: false, enabled: true });
    // The spec: optional only when the account already has a webhook URL (here: an enabled endpoint).
    if (endpoints === 0) throw validationError('body/webhook_url', 'is required when the team has no enabled webhook endpoint');
  }
  const calendars = await listRawCalendars(deps, request);
  const chosen = request.raw_calendar_id === null ? (calendars.find((c) => c.is_primary) ?? calendars[0]) : calendars.find((c) => c.id === request.raw_calendar_id);
  if (!chosen) {
    throw request.raw_calendar_id === null
      ? validationError('body/oauth_refresh_token', 'grants access to no calendar')
      : validationError('body/raw_calendar_id', 'is not a calendar of this account (POST /calendars/raw lists them)');
  }
  const calendarId = deps.commands.newId();
  const firstRound = deps.calendarSync.nextRound(calendarId, ROUND_WAIT_MS);
  const seal = (plain: string) => deps.secretBox.seal(plain);
  const connect = () => handleCalendarCommand(deps.commands, calendarId, {
    type: 'Connect',
    calendar_id: calendarId,
    team_id: caller.team_id,
    platform: request.platform,
    provider_calendar_id: chosen.id,
    name: chosen.name,
    email: chosen.email,
    oauth_client_id: request.oauth_client_id,
    oauth_client_secret: seal(request.oauth_client_secret),
    refresh_token: seal(request.oauth_refresh_token),
    webhook_url: request.webhook_url,
    created_by: { key_id: caller.key_id, api_key: seal(apiKey) },
    now: nowIso(deps.commands),
  });
  const held = () => deps.readStore.count(CALENDARS, { team_id: caller.team_id, removed: false });
  await withinTeamLimit(deps.readStore, caller.team_id, 'calendars', held, async () => {
    const result = await connect();
    if (E.isLeft(result)) throw calendarNotFound();
    await deps.projections.waitForPosition(result.right.position);
  });
  deps.calendarSync.wake(calendarId);
  await waitForRound(deps, firstRound);
  return findCalendarOfCaller(deps.readStore, caller, calendarId);
};

export const removeCalendar = async (deps: CalendarApiDeps, caller: Caller, calendarId: string): Promise<void> => {
  await findCalendarOfCaller(deps.readStore, caller, calendarId);
  const result = await handleCalendarCommand(deps.commands, calendarId, { type: 'Remove', team_id: caller.team_id, now: nowIso(deps.commands) });
  if (E.isLeft(result)) throw calendarNotFound();
  await deps.projections.waitForPosition(result.right.position);
};

/**
 * Reads the calendar again in full (also a calendar the provider refused before: the team may have fixed
 * it). `finished`: the round ended within the wait and the answer shows it; else it goes on.
 */
export const resyncCalendar = async (deps: CalendarApiDeps, caller: Caller, calendarId: string): Promise<{ view: CalendarView; finished: boolean }> => {
  await findCalendarOfCaller(deps.readStore, caller, calendarId);
  const round = deps.calendarSync.nextRound(calendarId, ROUND_WAIT_MS);
  const result = await handleCalendarCommand(deps.commands, calendarId, { type: 'RequestSync', team_id: caller.team_id, reason: 'api', full: true, now: nowIso(deps.commands) });
  if (E.isLeft(result)) throw calendarNotFound();
  deps.calendarSync.wake(calendarId);
  const finished = await waitForRound(deps, round);
  return { view: await findCalendarOfCaller(deps.readStore, caller, calendarId), finished };
};

/** The team's calendars, oldest first. */
export const calendarsOfTeam = (readStore: ReadStore, teamId: string): Promise<readonly CalendarView[]> =>
  readStore.find<CalendarView>(CALENDARS, { where: { team_id: teamId, removed: false }, orderBy: [{ field: 'created_at', direction: 'asc' }] });
