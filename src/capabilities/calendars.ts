import { openCalendarProviders, realCalendarProviders } from '../adapters/calendar-providers';
import { calendarPushRouter } from '../http/calendar-push/calendar-push-router';
import { botDefinitionOfParam } from '../http/codecs/calendar-bot-param';
import { calendarApiRouters } from '../http/calendars/calendar-api-routers';
import { calendarRouteDocs } from '../http/calendars/calendar-routes-doc';
import { botMakingOf } from '../http/calendars/calendar-bot-operations';
import { calendarBotParamViewProjection } from '../projections/calendars/calendar-bot-param-view';
import { calendarChannelViewProjection } from '../projections/calendars/calendar-channel-view';
import { calendarEventViewProjection } from '../projections/calendars/calendar-event-view';
import { calendarViewProjection } from '../projections/calendars/calendar-view';
import { partOf } from '../subscribers/background/background-part';
import { nextRoundInLog } from '../subscribers/calendars/next-round-in-log';
import { scheduleCalendarBots } from '../subscribers/schedule-calendar-bots';
import { CalendarSyncWorker } from '../subscribers/sync-calendars';
import type { Capability } from './capability';
import { subscriberPart } from './subscriber-part';

/**
 * Calendars: sync with Google and Microsoft (one owner at a time, under its lease, so that no calendar is
 * synced by two processes at once), the bots that follow calendar events, and the calendar API.
 */
export const calendars: Capability = {
  name: 'calendars',
  projections: [calendarViewProjection, calendarEventViewProjection, calendarChannelViewProjection, calendarBotParamViewProjection],
  apiDocs: [calendarRouteDocs],
  build: (context) => {
    const { config, overrides, log } = context;
    const calendarProviders = overrides.calendarProviders ?? openCalendarProviders(config.calendarProviders ?? realCalendarProviders, { sandboxHosts: config.sandboxHosts });
    const calendarBotMaking = botMakingOf({ secretBox: context.secretBox, sandboxHosts: config.sandboxHosts });
    const calendarBots = subscriberPart(context, 'calendar-bots', () =>
      scheduleCalendarBots({
        commands: context.commands,
        readStore: context.readStore,
        waitForReadModels: (position) => context.readModels.waitForPosition(position, 30_000),
        definitionOf: (param, meetingUrl) => botDefinitionOfParam(param, meetingUrl, calendarBotMaking),
        log,
      }),
    );
    // After listening (it is later in the list than the HTTP server): the push channels it opens name the public address.
    const sync = partOf(
      'calendar-sync',
      async () => {
        const worker = new CalendarSyncWorker(
          { commands: context.commands, readStore: context.readStore, providers: calendarProviders, secretBox: context.secretBox, signer: context.signer, publicUrl: context.publicUrl, log },
          { ...(config.calendarResyncMs ? { periodicResyncMs: config.calendarResyncMs } : {}), ...overrides.calendarSync },
        );
        await worker.start(context.readModels.position);
        return worker;
      },
      { lease: 'calendar-sync' },
    );
    // Where this process runs the sync, the API wakes it and waits for its round; elsewhere the recorded
    // request wakes the holder, and the API waits for the end of its round in the log.
    const calendarSync = {
      wake: (calendarId: string) => sync.current?.wake(calendarId),
      nextRound: async (calendarId: string, timeoutMs: number) =>
        sync.current ? sync.current.nextRound(calendarId, timeoutMs) : nextRoundInLog({ commands: context.commands, log }, context.readModels.position, calendarId, timeoutMs),
    };
    const api = context.roles.api;
    return {
      parts: api ? [calendarBots, sync] : [],
      publicRouters: api
        ? calendarApiRouters({ ...context, projections: context.readModels, calendarProviders, calendarSync, sandboxHosts: config.sandboxHosts })
        : [],
      unauthenticatedRouters: api ? [calendarPushRouter({ commands: context.commands, signer: context.signer, wake: calendarSync.wake }).routes()] : [],
      expose: { calendarSync: sync },
    };
  },
};
