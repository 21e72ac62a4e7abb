import type { CreatedBy } from '../../domain/bot/bot-events';
import type { CalendarBotParam } from '../../domain/calendar/calendar-events';
import type { Projection } from '../projection';

/** Bot parameters attached to one event or one series of a calendar (null on an event: left out of its series' bot). */
export type CalendarBotParamView = {
  readonly id: string;
  readonly calendar_id: string;
  readonly team_id: string;
  readonly kind: 'event' | 'series';
  /** the event's id, or the series' id */
  readonly key: string;
  readonly series_id: string | null;
  readonly param: CalendarBotParam | null;
  /** the key that attached them, sealed: the bots they make act for it (their webhooks carry it) */
  readonly created_by: CreatedBy | null;
  readonly updated_at: string;
  /** cleared: kept as a tombstone so that a replay never brings it back */
  readonly cleared: boolean;
};

export const CALENDAR_BOT_PARAMS = 'calendar_bot_params';

type Scope = { readonly kind: 'event'; readonly event_id: string } | { readonly kind: 'series'; readonly series_id: string };
const keyOf = (scope: Scope): string => (scope.kind === 'event' ? scope.event_id : scope.series_id);
export const botParamDocId = (calendarId: string, scope: Scope): string => `${calendarId}:${scope.kind}:${keyOf(scope)}`;

export const calendarBotParamViewProjection: Projection<CalendarBotParamView> = {
  collection: CALENDAR_BOT_PARAMS,
  indexes: [[{ field: 'calendar_id', direction: 'asc' }]],
  documentId: (event) =>
    event.type === 'CalendarBotParamsSet' || event.type === 'CalendarBotParamsCleared' ? botParamDocId(event.data.calendar_id, event.data.scope) : null,
  evolve: (doc, event) => {
    if (event.type === 'CalendarBotParamsSet') {
      const { calendar_id, team_id, scope, series_id, bot_param, created_by, at } = event.data;
      return {
        id: botParamDocId(calendar_id, scope), calendar_id, team_id, kind: scope.kind, key: keyOf(scope), series_id, param: bot_param, created_by, updated_at: at, cleared: false,
      };
    }
    if (event.type === 'CalendarBotParamsCleared' && doc !== null) return { ...doc, param: null, cleared: true, updated_at: event.data.at };
    return null;
  },
};
