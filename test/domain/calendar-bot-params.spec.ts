import assert from 'node:assert/strict';
import { effectiveBotParam } from '../../src/domain/calendar/calendar-bot-params';
import { calendarDecider, type CalendarCommand } from '../../src/domain/calendar/calendar-decider';
import { CalendarEvent, type CalendarBotParam } from '../../src/domain/calendar/calendar-events';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(calendarDecider, CalendarEvent);

const T0 = '2026-05-04T08:00:00.000Z';
const CAL = 'cal-1';
const TEAM = 'team-1';
const ids = { calendar_id: CAL, team_id: TEAM };
const sealed = (name: string) => ({ sealed: `v1.${name}.tag.body` });
const BY = { key_id: 'key-1', api_key: sealed('key') };

const connected: CalendarEvent = {
  type: 'CalendarConnected',
  data: {
    calendar_id: CAL, team_id: TEAM, platform: 'google', provider_calendar_id: 'alice@example.com', name: 'Alice', email: 'alice@example.com',
    oauth_client_id: 'client-1', oauth_client_secret: sealed('secret'), refresh_token: sealed('refresh'), webhook_url: null, created_by: BY, at: T0,
  },
};
const removedCalendar: CalendarEvent = { type: 'CalendarRemoved', data: { ...ids, at: at(T0, { m: 1 }) } };

const param = (bot_name: string): CalendarBotParam => ({ generation: 'legacy', shown: { bot_name }, secrets: {}, deduplication_key: null });
const NOW = at(T0, { m: 10 });
const request = (event_id: string, series_id: string | null, all_occurrences: boolean) => ({ event_id, series_id, all_occurrences, created_by: BY, now: NOW });
const attach = (event_id: string, series_id: string | null, all_occurrences: boolean, name = 'Notetaker'): CalendarCommand => ({
  type: 'AttachBot', ...request(event_id, series_id, all_occurrences), bot_param: param(name),
});
const detach = (event_id: string, series_id: string | null, all_occurrences: boolean): CalendarCommand => ({ type: 'DetachBot', ...request(event_id, series_id, all_occurrences) });

const setOn = (scope: { kind: 'event'; event_id: string } | { kind: 'series'; series_id: string }, series_id: string | null, bot_param: CalendarBotParam | null): CalendarEvent => ({
  type: 'CalendarBotParamsSet', data: { ...ids, scope, series_id, bot_param, created_by: BY, at: NOW },
});
const clearedOn = (scope: { kind: 'event'; event_id: string } | { kind: 'series'; series_id: string }): CalendarEvent => ({
  type: 'CalendarBotParamsCleared', data: { ...ids, scope, at: NOW },
});
const ev = (event_id: string) => ({ kind: 'event' as const, event_id });
const series = (series_id: string) => ({ kind: 'series' as const, series_id });

describe('calendar bot parameters (POST, PATCH, DELETE /calendar_events/{uuid}/bot)', () => {
  it('given a one-off event, when a bot is attached, then the event has its parameters', () => {
    spec.given([connected]).when(attach('e1', null, false)).then([setOn(ev('e1'), null, param('Notetaker'))]);
  });
  it('given an instance, when attached with all_occurrences, then the series has them and instance-level ones give way', () => {
    spec.given([connected, setOn(ev('i2'), 's1', param('Own'))]).when(attach('i1', 's1', true)).then([setOn(series('s1'), 's1', param('Notetaker')), clearedOn(ev('i2'))]);
  });
  it('all_occurrences on a one-off event is the event alone', () => {
    spec.given([connected]).when(attach('e1', null, true)).then([setOn(ev('e1'), null, param('Notetaker'))]);
  });
  it('an instance\'s own parameters win over its series\'; an instance left out has none', () => {
    const state = stateAfter(calendarDecider, [connected, setOn(series('s1'), 's1', param('Series')), setOn(ev('i2'), 's1', param('Own')), setOn(ev('i3'), 's1', null)]);
    assert.ok(state.kind === 'present');
    assert.equal(effectiveBotParam(state.bot_params, 'i1', 's1')?.shown.bot_name, 'Series', 'new and untouched instances follow the series');
    assert.equal(effectiveBotParam(state.bot_params, 'i2', 's1')?.shown.bot_name, 'Own');
    assert.equal(effectiveBotParam(state.bot_params, 'i3', 's1'), null);
  });
  it('DELETE of one instance of a series with a bot leaves that instance out', () => {
    spec.given([connected, setOn(series('s1'), 's1', param('Series'))]).when(detach('i1', 's1', false)).then([setOn(ev('i1'), 's1', null)]);
  });
  it('DELETE of an event\'s own bot clears it', () => {
    spec.given([connected, setOn(ev('e1'), null, param('Own'))]).when(detach('e1', null, false)).then([clearedOn(ev('e1'))]);
  });
  it('DELETE with all_occurrences clears the series and every instance-level entry', () => {
    spec.given([connected, setOn(series('s1'), 's1', param('Series')), setOn(ev('i2'), 's1', param('Own')), setOn(ev('i3'), 's1', null), setOn(ev('x'), 's2', param('Other'))])
      .when(detach('i1', 's1', true))
      .then([clearedOn(series('s1')), clearedOn(ev('i2')), clearedOn(ev('i3'))]);
  });
  it('DELETE is idempotent: no bot, nothing to record', () => {
    spec.given([connected]).when(detach('e1', null, false)).thenNothing();
    spec.given([connected, setOn(series('s1'), 's1', param('Series')), setOn(ev('i1'), 's1', null)]).when(detach('i1', 's1', false)).thenNothing();
    spec.given([connected]).when(detach('i1', 's1', true)).thenNothing();
  });
  it('a removed calendar takes no bots', () => {
    spec.given([connected, removedCalendar]).when(attach('e1', null, false)).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
    spec.given([connected, removedCalendar]).when(detach('e1', null, false)).thenRejects({ code: 'CALENDAR_NOT_FOUND' });
  });
});
