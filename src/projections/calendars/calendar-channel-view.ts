import type { Projection } from '../projection';

/** A push channel of a calendar, found by our channel id when its provider posts a notice. */
export type CalendarChannelView = {
  readonly id: string;
  readonly calendar_id: string;
  readonly provider_channel_id: string;
  readonly expires_at: string;
  readonly open: boolean;
};

export const CALENDAR_CHANNELS = 'calendar_channels';

export const calendarChannelViewProjection: Projection<CalendarChannelView> = {
  collection: CALENDAR_CHANNELS,
  documentId: (event) => {
    if (event.type === 'CalendarPushChannelOpened') return event.data.channel.channel_id;
    if (event.type === 'CalendarPushChannelRenewed' || event.type === 'CalendarPushChannelClosed') return event.data.channel_id;
    return null;
  },
  evolve: (doc, event) => {
    switch (event.type) {
      case 'CalendarPushChannelOpened': {
        const { channel, calendar_id } = event.data;
        return { id: channel.channel_id, calendar_id, provider_channel_id: channel.provider_channel_id, expires_at: channel.expires_at, open: true };
      }
      case 'CalendarPushChannelRenewed':
        return doc === null ? null : { ...doc, expires_at: event.data.expires_at };
      case 'CalendarPushChannelClosed':
        return doc === null ? null : { ...doc, open: false };
      default:
        return null;
    }
  },
};
