import * as E from 'fp-ts/Either';
import { handleCalendarCommand, loadCalendar } from '../../commands/calendar-commands';
import { nowIso } from '../../commands/command-deps';
import { effectiveBotParam } from '../../domain/calendar/calendar-bot-params';
import type { CalendarBotParam } from '../../domain/calendar/calendar-events';
import { CALENDAR_EVENTS, type CalendarEventView } from '../../projections/calendars/calendar-event-view';
import { ApiError, notFound, orThrow, validationError } from '../api-error';
import type { Caller } from '../app-context';
import { botDefinitionOfParam, mergeBotParam } from '../codecs/calendar-bot-param';
import { checkVcJoin, legacyVcFieldNames, v2VcFieldNames } from '../vc-credentials/vc-join-checks';
import { calendarNotFound, findCalendarOfCaller, type CalendarApiDeps } from './calendar-operations';
import { botParamsOfCalendar } from './event-bot-params';

/** How the API and the bot follower turn attached parameters into a bot: the service's secret box and host rules. */
export const botMakingOf = (deps: Pick<CalendarApiDeps, 'secretBox' | 'sandboxHosts'>) => ({
  open: (sealed: Parameters<typeof deps.secretBox.open>[0]) => deps.secretBox.open(sealed),
  seal: (plain: string) => deps.secretBox.seal(plain),
  sandboxHosts: deps.sandboxHosts,
});

export const eventNotFound = () => notFound('FST_ERR_CALENDAR_EVENT_NOT_FOUND', 'Calendar event not found');

/** An event of one of the caller's calendars that it has not removed. */
export const findEventOfCaller = async (deps: Pick<CalendarApiDeps, 'readStore'>, caller: Caller, eventId: string): Promise<CalendarEventView> => {
  const event = (await deps.readStore.get<CalendarEventView>(CALENDAR_EVENTS, eventId))?.doc;
  if (!event || event.team_id !== caller.team_id) throw eventNotFound();
  // An event of a removed calendar is gone with it.
  await findCalendarOfCaller(deps.readStore, caller, event.calendar_id).catch(() => {
    throw eventNotFound();
  });
  return event;
};

/** The events a bot request changed: the event, or every listed instance of its series. */
const eventsTouched = async (deps: CalendarApiDeps, event: CalendarEventView, allOccurrences: boolean): Promise<readonly CalendarEventView[]> => {
  if (!allOccurrences || event.series_id === null) return [(await deps.readStore.get<CalendarEventView>(CALENDAR_EVENTS, event.id))?.doc ?? event];
  return deps.readStore.find<CalendarEventView>(CALENDAR_EVENTS, {
    where: { calendar_id: event.calendar_id, series_id: event.series_id, deleted: false },
    orderBy: [{ field: 'start_time', direction: 'asc' }, { field: 'id', direction: 'asc' }],
  });
};

export interface TouchedEvents {
  readonly events: readonly CalendarEventView[];
  readonly botParamOf: (event: CalendarEventView) => CalendarBotParam | null;
}

const answer = async (deps: CalendarApiDeps, event: CalendarEventView, allOccurrences: boolean): Promise<TouchedEvents> => ({
  events: await eventsTouched(deps, event, allOccurrences),
  botParamOf: await botParamsOfCalendar(deps.readStore, event.calendar_id),
});

/**
 * The bot the parameters make must be one POST /v2/bots would take, with this event's link (or, for a
 * series, the first instance's that has one): refused now rather than failing at the meeting's time.
 */
const checkBotOf = async (deps: CalendarApiDeps, event: CalendarEventView, allOccurrences: boolean, param: CalendarBotParam): Promise<void> => {
  if (event.deleted) throw new ApiError({ status: 409, code: 'FST_ERR_CALENDAR_EVENT_CANCELLED', message: 'The event was cancelled', details: 'A cancelled event gets no bot' });
  const withLink = event.meeting_url !== null ? event : (await eventsTouched(deps, event, allOccurrences)).find((e) => e.meeting_url !== null);
  if (!withLink?.meeting_url) throw validationError('path/uuid', 'names an event without a meeting link: there is no meeting for a bot to join');
  const definition = orThrow(botDefinitionOfParam(param, withLink.meeting_url, botMakingOf(deps)));
  await checkVcJoin(deps, event.team_id, definition.config.vc, param.generation === 'legacy' ? legacyVcFieldNames : v2VcFieldNames);
};

const run = async (deps: CalendarApiDeps, caller: Caller, event: CalendarEventView, command: Parameters<typeof handleCalendarCommand>[2]) => {
  const result = await handleCalendarCommand(deps.commands, event.calendar_id, command);
  if (E.isLeft(result)) throw calendarNotFound();
  await deps.projections.waitForPosition(result.right.position);
};

const requestOf = (deps: CalendarApiDeps, caller: Caller, apiKey: string, event: CalendarEventView, allOccurrences: boolean) => ({
  event_id: event.id,
  series_id: event.series_id,
  all_occurrences: allOccurrences,
  created_by: { key_id: caller.key_id, api_key: deps.secretBox.seal(apiKey) },
  now: nowIso(deps.commands),
});

/** POST: these parameters, whole, for the event or its series. */
export const attachBot = async (deps: CalendarApiDeps, caller: Caller, apiKey: string, event: CalendarEventView, allOccurrences: boolean, param: CalendarBotParam) => {
  await checkBotOf(deps, event, allOccurrences, param);
  await run(deps, caller, event, { type: 'AttachBot', ...requestOf(deps, caller, apiKey, event, allOccurrences), bot_param: param });
  return answer(deps, event, allOccurrences);
};

/** PATCH: the given fields replace those of the bot the event (or its series) has; there must be one. */
export const changeBot = async (deps: CalendarApiDeps, caller: Caller, apiKey: string, event: CalendarEventView, allOccurrences: boolean, patch: CalendarBotParam) => {
  const state = await loadCalendar(deps.commands, event.calendar_id);
  if (state.kind !== 'present' || state.removed) throw calendarNotFound();
  const ofSeries = allOccurrences && event.series_id !== null ? (state.bot_params.series.get(event.series_id) ?? null) : null;
  const current = ofSeries ?? effectiveBotParam(state.bot_params, event.id, event.series_id);
  if (current === null) {
    throw notFound('FST_ERR_CALENDAR_BOT_NOT_FOUND', 'No bot is scheduled for this event', 'POST /calendar_events/{uuid}/bot schedules one');
  }
  const merged = mergeBotParam(current, patch);
  await checkBotOf(deps, event, allOccurrences, merged);
  await run(deps, caller, event, { type: 'AttachBot', ...requestOf(deps, caller, apiKey, event, allOccurrences), bot_param: merged });
  return answer(deps, event, allOccurrences);
};

/** DELETE: idempotent; the events answered show no bot. */
export const detachBot = async (deps: CalendarApiDeps, caller: Caller, apiKey: string, event: CalendarEventView, allOccurrences: boolean) => {
  await run(deps, caller, event, { type: 'DetachBot', ...requestOf(deps, caller, apiKey, event, allOccurrences) });
  return answer(deps, event, allOccurrences);
};
