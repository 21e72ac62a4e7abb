import type { CreatedBy } from '../bot/bot-events';
import type { BotScope, CalendarBotParam, CalendarEvent } from './calendar-events';

/** An event's own parameters (null: left out of its series' bot), and its series. */
export interface EventBotParam {
  readonly series_id: string | null;
  readonly param: CalendarBotParam | null;
}

/** The bot parameters attached to a calendar: per series (all_occurrences) and per event. */
export interface BotParams {
  readonly series: ReadonlyMap<string, CalendarBotParam>;
  readonly events: ReadonlyMap<string, EventBotParam>;
}

export const noBotParams: BotParams = { series: new Map(), events: new Map() };

/** An event's own parameters win over its series'; an instance left out has none. */
export const effectiveBotParam = (params: BotParams, eventId: string, seriesId: string | null): CalendarBotParam | null => {
  const own = params.events.get(eventId);
  if (own !== undefined) return own.param;
  return seriesId === null ? null : (params.series.get(seriesId) ?? null);
};

export interface BotRequest {
  readonly event_id: string;
  readonly series_id: string | null;
  readonly all_occurrences: boolean;
  readonly created_by: CreatedBy;
  readonly now: string;
}

type Ids = { readonly calendar_id: string; readonly team_id: string };

const cleared = (ids: Ids, scope: BotScope, at: string): CalendarEvent => ({ type: 'CalendarBotParamsCleared', data: { ...ids, scope, at } });

const instancesOf = (params: BotParams, seriesId: string): string[] =>
  [...params.events].filter(([, own]) => own.series_id === seriesId).map(([eventId]) => eventId);

/**
 * POST and PATCH: the parameters go on the event, or with `all_occurrences` on its series (then every
 * instance, present and future, follows the series: instance-level parameters give way).
 */
export const attachBot = (ids: Ids, params: BotParams, request: BotRequest, botParam: CalendarBotParam): CalendarEvent[] => {
  const { event_id, series_id, all_occurrences, created_by, now } = request;
  if (all_occurrences && series_id !== null) {
    return [
      { type: 'CalendarBotParamsSet', data: { ...ids, scope: { kind: 'series', series_id }, series_id, bot_param: botParam, created_by, at: now } },
      ...instancesOf(params, series_id).map((eventId) => cleared(ids, { kind: 'event', event_id: eventId }, now)),
    ];
  }
  return [{ type: 'CalendarBotParamsSet', data: { ...ids, scope: { kind: 'event', event_id }, series_id, bot_param: botParam, created_by, at: now } }];
};

/**
 * DELETE: idempotent. With `all_occurrences` the series and all its instances lose their bots; otherwise
 * only this event (an instance of a series with a bot is left out of it).
 */
export const detachBot = (ids: Ids, params: BotParams, request: BotRequest): CalendarEvent[] => {
  const { event_id, series_id, all_occurrences, created_by, now } = request;
  if (all_occurrences && series_id !== null) {
    return [
      ...(params.series.has(series_id) ? [cleared(ids, { kind: 'series', series_id }, now)] : []),
      ...instancesOf(params, series_id).map((eventId) => cleared(ids, { kind: 'event', event_id: eventId }, now)),
    ];
  }
  if (effectiveBotParam(params, event_id, series_id) === null) return [];
  if (series_id !== null && params.series.has(series_id)) {
    return [{ type: 'CalendarBotParamsSet', data: { ...ids, scope: { kind: 'event', event_id }, series_id, bot_param: null, created_by, at: now } }];
  }
  return [cleared(ids, { kind: 'event', event_id }, now)];
};

export const evolveBotParams = (params: BotParams, event: CalendarEvent): BotParams => {
  if (event.type === 'CalendarBotParamsSet') {
    const { scope, series_id, bot_param } = event.data;
    if (scope.kind === 'series') return bot_param === null ? params : { ...params, series: new Map(params.series).set(scope.series_id, bot_param) };
    return { ...params, events: new Map(params.events).set(scope.event_id, { series_id, param: bot_param }) };
  }
  if (event.type === 'CalendarBotParamsCleared') {
    const { scope } = event.data;
    if (scope.kind === 'series') {
      const series = new Map(params.series);
      series.delete(scope.series_id);
      return { ...params, series };
    }
    const events = new Map(params.events);
    events.delete(scope.event_id);
    return { ...params, events };
  }
  return params;
};
