import { createHash } from 'node:crypto';
import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { RecordedEvent } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { handleBotCommand, loadBot } from '../commands/bot-commands';
import { nameBasedUuid } from '../commands/calendar-commands';
import { nowIso, type CommandDeps } from '../commands/command-deps';
import { handleCommand, loadState } from '../commands/handle-command';
import type { DomainEvent } from '../domain/all-events';
import type { BotDefinition } from '../domain/bot/bot-decider';
import type { CreatedBy } from '../domain/bot/bot-events';
import { isTerminal } from '../domain/bot/bot-status';
import { effectiveBotParam } from '../domain/calendar/calendar-bot-params';
import type { CalendarBotParam } from '../domain/calendar/calendar-events';
import {
  botJoinAt, EventBotLinkEvent, eventBotLinkDecider, eventBotLinkStreamName, planEventBot, type EventBotLinkCommand, type FollowedBot, type WantedBot,
} from '../domain/calendar/event-bot-link';
import { toMillis } from '../domain/codec-helpers';
import { CALENDAR_BOT_PARAMS, type CalendarBotParamView } from '../projections/calendars/calendar-bot-param-view';
import { CALENDAR_EVENTS, type CalendarEventView } from '../projections/calendars/calendar-event-view';
import { CALENDARS, type CalendarView } from '../projections/calendars/calendar-view';
import type { Subscriber } from './subscriber-runner';

export interface ScheduleCalendarBotsDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly waitForReadModels: (position: bigint) => Promise<boolean>;
  /** the bot attached parameters make with an event's link, as POST /bots or POST /v2/bots would make it */
  readonly definitionOf: (param: CalendarBotParam, meetingUrl: string) => E.Either<{ readonly message: string }, BotDefinition>;
  readonly log: Logger;
}

const FOLLOWED: ReadonlySet<string> = new Set([
  'CalendarEventUpserted', 'CalendarEventCancelled', 'CalendarBotParamsSet', 'CalendarBotParamsCleared', 'CalendarRemoved',
]);

const fingerprintOf = (param: CalendarBotParam): string => createHash('sha256').update(JSON.stringify(param)).digest('base64url');

const followedBotOf = (bot: Awaited<ReturnType<typeof loadBot>>): FollowedBot | null => {
  if (bot.kind === 'absent') return null;
  if (isTerminal(bot.status)) return 'ended';
  return bot.status === 'scheduled' ? 'scheduled' : 'started';
};

/**
 * Calendar bots are scheduled bots that follow their event (DESIGN.md). After every change of an event,
 * of the bot parameters attached to it or its series, or of its calendar, each event concerned is brought
 * in line: scheduled, moved, changed or cancelled through the scheduled bots' own commands, so the
 * scheduler and the dispatcher do the rest. Every step is idempotent (bot ids derive from the event and
 * its link's history, or from the deduplication key and the time), so a replay after a crash repeats nothing.
 */
export const scheduleCalendarBots = (deps: ScheduleCalendarBotsDeps): Subscriber => {
  const runLink = (eventId: string, command: EventBotLinkCommand) =>
    handleCommand(deps.commands.eventStore, eventBotLinkStreamName(eventId), eventBotLinkDecider, EventBotLinkEvent, command);

  const sharedElsewhere = async (botId: string, eventId: string): Promise<boolean> =>
    (await deps.readStore.find<CalendarEventView>(CALENDAR_EVENTS, { where: { bot_id: botId } })).some((e) => e.id !== eventId);

  const follow = async (calendar: CalendarView | null, event: CalendarEventView, paramOf: (e: CalendarEventView) => CalendarBotParam | null, createdBy: CreatedBy | null) => {
    const linkState = await loadState(deps.commands.eventStore, eventBotLinkStreamName(event.id), eventBotLinkDecider, EventBotLinkEvent);
    const { link } = linkState;
    const linkedBot = link === null ? null : followedBotOf(await loadBot(deps.commands, link.bot_id));
    const now = nowIso(deps.commands);
    const param = calendar === null || calendar.removed || event.deleted ? null : paramOf(event);
    let wanted: WantedBot | null = null;
    let definition: BotDefinition | null = null;
    const joinAt = botJoinAt(event, toMillis(now), link?.join_at ?? null);
    if (param !== null && event.meeting_url !== null && joinAt !== null) {
      const made = deps.definitionOf(param, event.meeting_url);
      if (E.isLeft(made)) {
        deps.log.warn({ calendar_id: event.calendar_id, event_id: event.id, message: made.left.message }, 'the bot parameters make no bot for this event');
      } else {
        definition = made.right;
        // One meeting, one bot: events sharing a deduplication key and a start share the bot.
        const keep = link !== null && linkedBot !== 'ended' && param.deduplication_key === null ? link.bot_id : null;
        const botId = param.deduplication_key !== null
          ? nameBasedUuid('calendar-bot', event.team_id, 'dedup', param.deduplication_key, event.start_time)
          : (keep ?? nameBasedUuid('calendar-bot', event.calendar_id, event.id, String(linkState.bots_made)));
        wanted = { bot_id: botId, join_at: joinAt, meeting_url: event.meeting_url, param_fingerprint: fingerprintOf(param) };
      }
    }
    const shared = link === null ? false : await sharedElsewhere(link.bot_id, event.id);
    const ids = { calendar_id: event.calendar_id, team_id: event.team_id, event_id: event.id };
    for (const step of planEventBot({ link, linkedBot, wanted, sharedElsewhere: shared })) {
      switch (step.kind) {
        case 'schedule': {
          const scheduled = await handleBotCommand(deps.commands, step.bot_id, {
            type: 'ScheduleBot', bot_id: step.bot_id, team_id: event.team_id, created_by: createdBy, join_at: wanted!.join_at, ...definition!, now,
          });
          if (E.isLeft(scheduled)) deps.log.warn({ event_id: event.id, bot_id: step.bot_id, refusal: scheduled.left }, 'a calendar bot could not be scheduled');
          break;
        }
        case 'change': {
          const bot = await loadBot(deps.commands, step.bot_id);
          if (bot.kind !== 'present' || bot.schedule === null) break;
          const changed = await handleBotCommand(deps.commands, step.bot_id, {
            type: 'ChangeSchedule', schedule_version: bot.schedule.version, ...definition!, created_by: createdBy, join_at: wanted!.join_at, now,
          });
          if (E.isLeft(changed)) deps.log.warn({ event_id: event.id, bot_id: step.bot_id, refusal: changed.left }, 'a calendar bot could not follow its event');
          break;
        }
        case 'cancel':
          await handleBotCommand(deps.commands, step.bot_id, { type: 'CancelScheduledBot', now });
          break;
        case 'leave':
          await handleBotCommand(deps.commands, step.bot_id, { type: 'RequestLeave', now });
          break;
        case 'link':
          await runLink(event.id, { type: 'Link', ...ids, ...step.link, now });
          break;
        case 'unlink':
          await runLink(event.id, { type: 'Unlink', ...ids, bot_id: step.bot_id, now });
          break;
      }
    }
  };

  /** The events a change concerns. */
  const eventsConcerned = async (event: DomainEvent): Promise<readonly CalendarEventView[]> => {
    const byId = async (id: string) => {
      const doc = (await deps.readStore.get<CalendarEventView>(CALENDAR_EVENTS, id))?.doc;
      return doc ? [doc] : [];
    };
    switch (event.type) {
      case 'CalendarEventUpserted':
        return byId(event.data.event.event_id);
      case 'CalendarEventCancelled':
        return byId(event.data.event_id);
      case 'CalendarBotParamsSet':
      case 'CalendarBotParamsCleared': {
        const { scope, calendar_id } = event.data;
        if (scope.kind === 'event') return byId(scope.event_id);
        return deps.readStore.find<CalendarEventView>(CALENDAR_EVENTS, { where: { calendar_id, series_id: scope.series_id } });
      }
      case 'CalendarRemoved':
        return (await deps.readStore.find<CalendarEventView>(CALENDAR_EVENTS, { where: { calendar_id: event.data.calendar_id } })).filter((e) => e.bot_id !== null);
      default:
        return [];
    }
  };

  return {
    name: 'schedule-calendar-bots',
    handle: async (event: DomainEvent, recorded: RecordedEvent) => {
      if (!FOLLOWED.has(event.type)) return;
      const calendarId = (event.data as { calendar_id: string }).calendar_id;
      if (!(await deps.waitForReadModels(recorded.position))) throw new Error(`read models did not reach position ${recorded.position} in time`);
      const params = await deps.readStore.find<CalendarBotParamView>(CALENDAR_BOT_PARAMS, { where: { calendar_id: calendarId } });
      // Most calendars have no bots: a sync of thousands of events costs them one read each, nothing more.
      if (event.type === 'CalendarEventUpserted' && params.every((p) => p.cleared) && (await eventsConcerned(event)).every((e) => e.bot_id === null)) return;
      const calendar = (await deps.readStore.get<CalendarView>(CALENDARS, calendarId))?.doc ?? null;
      const live = params.filter((p) => !p.cleared);
      const series = new Map(live.filter((p) => p.kind === 'series' && p.param !== null).map((p) => [p.key, p.param!]));
      const events = new Map(live.filter((p) => p.kind === 'event').map((p) => [p.key, { series_id: p.series_id, param: p.param }]));
      const paramOf = (e: CalendarEventView) => effectiveBotParam({ series, events }, e.id, e.series_id);
      // The bot acts for the key that attached its parameters (its webhooks carry that key): the event's
      // own attachment, else its series' (an instance seen for the first time inherits it).
      const byKey = new Map(live.map((p) => [`${p.kind}:${p.key}`, p.created_by]));
      const createdByOf = (e: CalendarEventView): CreatedBy | null =>
        byKey.get(`event:${e.id}`) ?? (e.series_id === null ? null : (byKey.get(`series:${e.series_id}`) ?? null));
      for (const concerned of await eventsConcerned(event)) await follow(calendar, concerned, paramOf, createdByOf(concerned));
    },
  };
};
