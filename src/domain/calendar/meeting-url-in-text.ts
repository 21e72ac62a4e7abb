import { platformOfMeetingUrl, type PlatformOptions } from '../meeting-url';

/**
 * Event texts come from whoever sends an invitation: the search for a link must cost time in proportion
 * to the text, and a bounded amount of it. Only the start of each text is searched (a meeting link sits
 * near the top of an invitation; Google caps a description at about 8 000 characters), and a link longer
 * than any meeting link is not one (it is not even parsed).
 */
export const MAX_TEXT_SEARCHED = 100_000;
export const MAX_MEETING_URL_LENGTH = 2_048;

/** What ends a link in running text (as the former `https?:\/\/[^\s<>"'`]+` had it). */
const ENDS_LINK = /[\s<>"'`]/;
/** Punctuation that ends a sentence or closes a bracket is not part of the link before it. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '>']);

/** The links of a text, in order, and the characters looked at to find them (each at most a few times). */
interface Scan {
  readonly links: string[];
  steps: number;
}

const schemeLengthAt = (text: string, at: number): number => (text.startsWith('https://', at) ? 8 : text.startsWith('http://', at) ? 7 : 0);

/**
 * One pass, left to right: each `http://` or `https://` starts a link that runs to the next character
 * that ends one; the next search starts after it. Trailing punctuation is taken off by walking back over
 * it once (a backtracking `[.,…]+$` made this quadratic: 40 000 dots held the event loop for seconds).
 */
const scanLinks = (fullText: string, scan: Scan): void => {
  const text = fullText.length > MAX_TEXT_SEARCHED ? fullText.slice(0, MAX_TEXT_SEARCHED) : fullText;
  const cutShort = text.length < fullText.length;
  let from = 0;
  while (from < text.length) {
    const start = text.indexOf('http', from);
    scan.steps += (start < 0 ? text.length : start) - from;
    if (start < 0) return;
    const schemeLength = schemeLengthAt(text, start);
    let end = start + schemeLength;
    while (schemeLength > 0 && end < text.length && !ENDS_LINK.test(text[end]!)) end += 1;
    scan.steps += Math.max(1, end - start);
    if (end === start + schemeLength) {
      // No link here; none can start inside `https://` either.
      from = start + Math.max(1, schemeLength);
      continue;
    }
    from = end;
    // A link the cut went through is not the link the text has.
    if (cutShort && end === text.length) return;
    let last = end;
    while (TRAILING.has(text[last - 1]!)) last -= 1;
    scan.steps += end - last;
    if (last - start <= MAX_MEETING_URL_LENGTH) scan.links.push(text.slice(start, last));
  }
};

/**
 * The meeting link of a calendar event and the work it took (characters looked at, parsed ones included):
 * the provider's own conference link first, else the first link in the event's text (location,
 * description) that names a meeting on a platform the service knows.
 */
export const findMeetingUrl = (
  links: readonly (string | null | undefined)[],
  texts: readonly (string | null | undefined)[],
  options: PlatformOptions,
): { readonly url: string | null; readonly steps: number } => {
  let steps = 0;
  const meetingOrNull = (candidate: string): string | null => {
    steps += candidate.length;
    return candidate.length <= MAX_MEETING_URL_LENGTH && platformOfMeetingUrl(candidate, options) !== null ? candidate : null;
  };
  for (const link of links) {
    const url = link ? meetingOrNull(link) : null;
    if (url !== null) return { url: url.trim(), steps };
  }
  for (const text of texts) {
    if (!text) continue;
    const scan: Scan = { links: [], steps: 0 };
    scanLinks(text, scan);
    steps += scan.steps;
    for (const candidate of scan.links) {
      const url = meetingOrNull(candidate);
      if (url !== null) return { url, steps };
    }
  }
  return { url: null, steps };
};

/** The meeting link of a calendar event (findMeetingUrl); null: the event is listed, but no bot can join it. */
export const meetingUrlIn = (links: readonly (string | null | undefined)[], texts: readonly (string | null | undefined)[], options: PlatformOptions): string | null =>
  findMeetingUrl(links, texts, options).url;
