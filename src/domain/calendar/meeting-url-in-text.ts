import { platformOfMeetingUrl, type PlatformOptions } from '../meeting-url';

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/g;

/** Punctuation that ends a sentence or closes a bracket is not part of the link before it. */
const trimTrailing = (url: string): string => url.replace(/[.,;:!?)\]}>]+$/, '');

/**
 * The meeting link of a calendar event: the provider's own conference link first, else the first link in
 * the event's text (location, description) that names a meeting on a platform the service knows. Null when
 * there is none: such an event is listed, but no bot can join it.
 */
export const meetingUrlIn = (links: readonly (string | null | undefined)[], texts: readonly (string | null | undefined)[], options: PlatformOptions): string | null => {
  for (const link of links) {
    if (link && platformOfMeetingUrl(link, options) !== null) return link.trim();
  }
  for (const text of texts) {
    for (const match of text?.match(URL_IN_TEXT) ?? []) {
      const url = trimTrailing(match);
      if (platformOfMeetingUrl(url, options) !== null) return url;
    }
  }
  return null;
};
