import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { eventCodec, IsoInstant } from '../codec-helpers';
import type { Decider } from '../decider';

/**
 * Which bot follows one calendar event: its own small stream (`calendar-event-bot-<event id>`), so that
 * following an event never reads its calendar's whole history. `bots_made` counts the bots it ever had:
 * the next one's id is derived from it, so a retry after a crash schedules the same bot, not a second.
 */
export const CalendarEventBotLinked = eventCodec('CalendarEventBotLinked', {
  calendar_id: t.string,
  team_id: t.string,
  event_id: t.string,
  bot_id: t.string,
  join_at: IsoInstant,
  meeting_url: t.string,
  /** of the bot parameters it was made from: a change of them changes the bot */
  param_fingerprint: t.string,
  at: IsoInstant,
});

export const CalendarEventBotUnlinked = eventCodec('CalendarEventBotUnlinked', {
  calendar_id: t.string,
  team_id: t.string,
  event_id: t.string,
  bot_id: t.string,
  at: IsoInstant,
});

export const EventBotLinkEvent = t.union([CalendarEventBotLinked, CalendarEventBotUnlinked]);
export type EventBotLinkEvent = t.TypeOf<typeof EventBotLinkEvent>;

export const eventBotLinkStreamName = (eventId: string): string => `calendar-event-bot-${eventId}`;

export interface EventBotLink {
  readonly bot_id: string;
  readonly join_at: string;
  readonly meeting_url: string;
  readonly param_fingerprint: string;
}

export interface EventBotLinkState {
  readonly link: EventBotLink | null;
  readonly bots_made: number;
}

export type EventBotLinkCommand =
  | ({ readonly type: 'Link'; readonly calendar_id: string; readonly team_id: string; readonly event_id: string; readonly now: string } & EventBotLink)
  | { readonly type: 'Unlink'; readonly calendar_id: string; readonly team_id: string; readonly event_id: string; readonly bot_id: string; readonly now: string };

const same = (a: EventBotLink, b: EventBotLink) =>
  a.bot_id === b.bot_id && a.join_at === b.join_at && a.meeting_url === b.meeting_url && a.param_fingerprint === b.param_fingerprint;

const decide = (command: EventBotLinkCommand, state: EventBotLinkState) => {
  const none = E.right<never, readonly EventBotLinkEvent[]>([]);
  if (command.type === 'Link') {
    const { type: _type, now, ...data } = command;
    if (state.link !== null && same(state.link, data)) return none;
    return E.right<never, readonly EventBotLinkEvent[]>([{ type: 'CalendarEventBotLinked', data: { ...data, at: now } }]);
  }
  if (state.link?.bot_id !== command.bot_id) return none;
  const { type: _type, now, ...data } = command;
  return E.right<never, readonly EventBotLinkEvent[]>([{ type: 'CalendarEventBotUnlinked', data: { ...data, at: now } }]);
};

const evolve = (state: EventBotLinkState, event: EventBotLinkEvent): EventBotLinkState => {
  if (event.type === 'CalendarEventBotUnlinked') return { ...state, link: null };
  const { bot_id, join_at, meeting_url, param_fingerprint } = event.data;
  const another = state.link?.bot_id !== bot_id;
  return { link: { bot_id, join_at, meeting_url, param_fingerprint }, bots_made: state.bots_made + (another ? 1 : 0) };
};

export const eventBotLinkDecider: Decider<EventBotLinkCommand, EventBotLinkEvent, EventBotLinkState, never> = {
  decide,
  evolve,
  initialState: () => ({ link: null, bots_made: 0 }),
};

/** Where a calendar event's bot stands, as far as following the event goes. */
export type FollowedBot = 'scheduled' | 'started' | 'ended';

/** What the event asks for now: a bot with this id, time, link and parameters; or none. */
export interface WantedBot extends EventBotLink {}

export type BotStep =
  | { readonly kind: 'schedule'; readonly bot_id: string }
  | { readonly kind: 'change'; readonly bot_id: string }
  | { readonly kind: 'cancel'; readonly bot_id: string }
  | { readonly kind: 'leave'; readonly bot_id: string }
  | { readonly kind: 'link'; readonly link: EventBotLink }
  | { readonly kind: 'unlink'; readonly bot_id: string };

/**
 * How an event's bot follows the event. A moved event moves its scheduled bot; changed parameters change
 * it; a cancelled event, a removed bot or calendar cancels it (a bot already queued is made to leave:
 * EXITING_MEETING_BEFORE_RECORD); a bot shared through a deduplication key is stopped only when no other
 * event still wants it. A bot that already started is not moved.
 */
export const planEventBot = (input: {
  readonly link: EventBotLink | null;
  readonly linkedBot: FollowedBot | null;
  readonly wanted: WantedBot | null;
  /** another event also follows the linked bot (one meeting through a deduplication key) */
  readonly sharedElsewhere: boolean;
}): BotStep[] => {
  const { link, linkedBot, wanted, sharedElsewhere } = input;
  const stopLinked = (): BotStep[] => {
    if (link === null) return [];
    const stop: BotStep[] =
      sharedElsewhere || linkedBot === null || linkedBot === 'ended' ? [] : [{ kind: linkedBot === 'scheduled' ? 'cancel' : 'leave', bot_id: link.bot_id }];
    return [...stop, { kind: 'unlink', bot_id: link.bot_id }];
  };
  if (wanted === null) return stopLinked();
  if (link !== null && link.bot_id === wanted.bot_id) {
    if (same(link, wanted)) return [];
    if (linkedBot === 'scheduled') return [{ kind: 'change', bot_id: wanted.bot_id }, { kind: 'link', link: wanted }];
    return [];
  }
  return [...stopLinked(), { kind: 'schedule', bot_id: wanted.bot_id }, { kind: 'link', link: wanted }];
};
