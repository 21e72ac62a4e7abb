/**
 * Our id of a channel names its calendar (`<calendar id>_<16 hex>`, within Google's 64 characters and
 * alphabet): a notice is routed by it, and its token (an HMAC of it) proves it is ours, even before the
 * channel's opening reached the read model.
 */
export const calendarChannelId = (calendarId: string, randomId: string): string => `${calendarId}_${randomId.replace(/-/g, '').slice(0, 16)}`;

export const calendarOfChannelId = (channelId: string): string | null => {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_[0-9a-f]{16}$/.exec(channelId);
  return match ? match[1]! : null;
};
