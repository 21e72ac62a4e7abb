import assert from 'node:assert/strict';
import { tmGuestNameProblem } from '../../../src/http/codecs/tm-guest-name';
import { accepted, refused, repeat, tmBody } from './create-bot-helpers';

describe('tm guest-name rules', () => {
  const acceptable: Array<[string, string]> = [
    ['a plain name', 'Notetaker'],
    ['digits and a space', 'Bot 2'],
    ["an ASCII apostrophe", "O'Brien"],
    ['a typographic apostrophe', 'O’Brien'],
    ['a precomposed letter', 'Zoë'],
    ['a decomposed letter (normalised to NFC)', 'Zoe\u0308'],
    ['a period inside', 'J. Doe'],
    ['underscore and at', 'j_doe@acme'],
    ['a hyphen', 'Anne-Marie'],
    ['a middle dot', 'Jean·Luc'],
    ['katakana with the katakana middle dot', 'ナカムラ・タロウ'],
    ['Devanagari with vowel signs', 'अनिल'],
    ['Cyrillic', 'Борис'],
    ['50 characters', repeat(50)],
    ['50 non-Latin characters', repeat(50, 'ß')],
  ];
  for (const [name, botName] of acceptable) {
    it(`accepts ${name}: ${JSON.stringify(botName)}`, () => {
      assert.equal(tmGuestNameProblem(botName.normalize('NFC')), null);
      assert.equal(accepted(tmBody({ bot_name: botName })).bot_name, botName.normalize('NFC'));
    });
  }

  const unacceptable: Array<[string, string, RegExp]> = [
    ['51 characters', repeat(51), /must NOT have more than 50 characters for a tm meeting/],
    ['consecutive periods', 'a..b', /must NOT contain consecutive periods/],
    ['a leading period', '.a', /must NOT start with a period/],
    ['a trailing period', 'a.', /must NOT end with a period/],
    ['consecutive spaces', 'a  b', /must NOT contain consecutive spaces/],
    ['an emoji', 'Bot 🤖', /must contain only letters, digits, spaces/],
    ['an emoji with a variation selector', 'Bot ❤️', /must contain only letters/],
    ['a letter with a variation selector', 'A\uFE0F', /must contain only letters/],
    ['a keycap emoji', '1\uFE0F\u20E3', /must contain only letters/],
    ['an exclamation mark', 'Bot!', /must contain only letters/],
    ['a tab', 'a\tb', /must contain only letters/],
    ['a no-break space', 'a\u00a0b', /must contain only letters/],
    ['a zero-width joiner', 'a\u200db', /must contain only letters/],
    ['angle brackets', '<b>', /must contain only letters/],
  ];
  for (const [name, botName, why] of unacceptable) {
    it(`refuses ${name}: ${JSON.stringify(botName)}, naming body/bot_name`, () => {
      assert.match(tmGuestNameProblem(botName) ?? '', why);
      const details = refused(tmBody({ bot_name: botName }), why);
      assert.match(details, /^body\/bot_name .* for a tm meeting$/);
    });
  }

  it('applies to authenticated tm joins too (tm_config given)', () => {
    refused(tmBody({ bot_name: 'a..b', tm_config: { email_group: 'pool@acme.example' } }), /^body\/bot_name /);
  });
});
