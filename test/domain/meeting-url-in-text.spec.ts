import assert from 'node:assert/strict';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { platformOfMeetingUrl } from '../../src/domain/meeting-url';
import { findMeetingUrl, MAX_MEETING_URL_LENGTH, MAX_TEXT_SEARCHED, meetingUrlIn } from '../../src/domain/calendar/meeting-url-in-text';

const options = { sandboxHosts: false };

/** The former search (a regex and a backtracking trim), kept as the reference for what is found. */
const formerSearch = (texts: readonly string[]): string | null => {
  for (const text of texts) {
    for (const match of text.match(/https?:\/\/[^\s<>"'`]+/g) ?? []) {
      const url = match.replace(/[.,;:!?)\]}>]+$/, '');
      if (platformOfMeetingUrl(url, options) !== null) return url;
    }
  }
  return null;
};

/** A small deterministic generator (no Math.random: a failure must be reproducible). */
const generator = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/**
 * Inputs an invitation's sender controls: long runs of the characters a link's end is trimmed of, of
 * schemes, of characters a link may hold, and mixtures.
 */
const adversarial = (n: number): Record<string, string> => ({
  'dots inside a link': `https://a${'.'.repeat(n)}b`,
  'dots ending a link': `https://zoom.us/j/1${'.'.repeat(n)}`,
  'closing brackets inside a link': `https://a${')'.repeat(n)}x`,
  'schemes back to back': 'https://'.repeat(Math.ceil(n / 8)),
  'empty links': 'https:// '.repeat(Math.ceil(n / 9)),
  'almost schemes': 'http:/'.repeat(Math.ceil(n / 6)),
  'one long link': `https://${'a'.repeat(n)}`,
  'many short links with trailing dots': `https://a.b/${'.'.repeat(20)}x `.repeat(Math.ceil(n / 34)),
});

describe('the meeting link in an event’s text', () => {
  it('finds what the former search found, on thousands of generated texts of links, punctuation and spaces', () => {
    const random = generator(7);
    const pieces = ['https://', 'http://', 'https://zoom.us/j/', 'https://meet.google.com/abc-defg-hij', 'https://teams.microsoft.com/l/', 'http', '.', ')', ']', '>', ',', ' ', '\n', '"', '`', 'x', '1', '?', 'pwd=', '/', ':'];
    for (let i = 0; i < 5_000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 14) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      assert.equal(meetingUrlIn([], [text], options), formerSearch([text]), JSON.stringify(text));
    }
  });

  it('looks at each character a bounded number of times: the work grows with the text, and stops growing past the searched length', () => {
    for (const n of [1_000, 10_000, MAX_TEXT_SEARCHED, 10 * MAX_TEXT_SEARCHED]) {
      for (const [name, text] of Object.entries(adversarial(n))) {
        const { steps } = findMeetingUrl([], [text], options);
        const searched = Math.min(text.length, MAX_TEXT_SEARCHED);
        assert.ok(steps <= 4 * searched + 16, `${name} (${text.length} characters): ${steps} steps`);
      }
    }
  });

  it('searches only the start of a long text, and takes no link the cut went through', () => {
    const link = 'https://zoom.us/j/123?pwd=abc';
    const padding = 'x '.repeat(MAX_TEXT_SEARCHED / 2);
    assert.equal(meetingUrlIn([], [`${padding}${link}`], options), null, 'past the searched length');
    assert.equal(meetingUrlIn([], [`${padding.slice(0, -12)}${link}`], options), null, 'cut through by the end of the search');
    assert.equal(meetingUrlIn([], [`${padding.slice(0, -40)}${link}`], options), link, 'whole within it');
    assert.equal(meetingUrlIn([], [padding + link, link], options), link, 'each text is searched on its own');
  });

  it('a link longer than any meeting link is not one, in the text or as the provider’s conference link', () => {
    const long = `https://zoom.us/j/1?pwd=${'a'.repeat(MAX_MEETING_URL_LENGTH)}`;
    const fits = `https://zoom.us/j/1?pwd=${'a'.repeat(MAX_MEETING_URL_LENGTH - 24)}`;
    assert.equal(fits.length, MAX_MEETING_URL_LENGTH);
    assert.equal(meetingUrlIn([], [long], options), null);
    assert.equal(meetingUrlIn([long], [], options), null);
    assert.equal(meetingUrlIn([], [`${long} ${fits}`], options), fits);
    assert.equal(meetingUrlIn([fits], [], options), fits);
  });

  it('the service is not held: a megabyte of each adversarial text is searched well within a bound the former search exceeds by hours', async function () {
    // The former search takes time in the square of a run (about 10^12 steps here); this one a few
    // milliseconds. The bound leaves room for starting a worker on a loaded machine; it is not a measure.
    this.timeout(120_000);
    const module = path.resolve(__dirname, '../../src/domain/calendar/meeting-url-in-text.ts');
    const texts = Object.values(adversarial(1_000_000));
    const worker = new Worker(
      `require('tsx/cjs');
       const { parentPort, workerData } = require('node:worker_threads');
       const { meetingUrlIn } = require(workerData.module);
       parentPort.postMessage(workerData.texts.map((text) => meetingUrlIn([], [text], { sandboxHosts: false })));`,
      { eval: true, workerData: { module, texts } },
    );
    try {
      const found = await new Promise<unknown>((resolve, reject) => {
        const bound = setTimeout(() => reject(new Error('the search did not finish within 60 s')), 60_000);
        worker.once('message', (m) => (clearTimeout(bound), resolve(m)));
        worker.once('error', (e) => (clearTimeout(bound), reject(e)));
      });
      assert.deepEqual(found, texts.map(() => null), 'none of them holds a meeting link the search can take');
    } finally {
      await worker.terminate();
    }
  });
});
