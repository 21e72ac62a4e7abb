/**
 * How read-model documents are written so that any MongoDB wire-protocol server stores them: FerretDB (the
 * server the tests run) refuses NUL in strings on PostgreSQL, keys with `.` or a leading `$`, and arrays
 * directly inside arrays; a read model holds users' text and users' keys (a bot's `extra`), and a write
 * refused once is refused forever, which would stop the projection for good. Documents are encoded on the
 * way in and decoded on the way out, and queries encode their values the same way.
 *
 * Strings: U+0000 becomes U+0001 U+0001 and U+0001 becomes U+0001 U+0002. This code is prefix-free and
 * keeps code point order (U+0001 U+0001 < U+0001 U+0002 < U+0002), so sorting, ranges and equality on
 * encoded strings agree with the plain ones; strings without U+0000 or U+0001 (nearly all) are unchanged.
 * Keys additionally turn `.` into U+0001 U+0003 and a leading `$` into U+0001 U+0004: keys are never
 * sorted, and the names queries use (`status`, `extra_text.k_…`) are unchanged. An array inside an array
 * becomes `{"\u0001a": [...]}`, a key no encoded key can be.
 */

const ESCAPE = '\u0001';
const NESTED_ARRAY = '\u0001a';
const NEEDS_STRING_ESCAPE = /[\u0000\u0001]/;
const NEEDS_KEY_ESCAPE = /[\u0000\u0001.]|^\$/;

export const encodeString = (text: string): string =>
  NEEDS_STRING_ESCAPE.test(text) ? text.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0001' : '\u0001\u0002')) : text;

const DECODED: Readonly<Record<string, string>> = { '\u0001': '\u0000', '\u0002': '\u0001', '\u0003': '.', '\u0004': '$' };

const decodeEscapes = (text: string): string => (text.includes(ESCAPE) ? text.replace(/\u0001([\u0001-\u0004])/g, (_, c: string) => DECODED[c]!) : text);

export const encodeKey = (key: string): string =>
  NEEDS_KEY_ESCAPE.test(key)
    ? encodeString(key)
        .replace(/\./g, '\u0001\u0003')
        .replace(/^\$/, '\u0001\u0004')
    : key;

/** Any value of a document (or of a query) as it is stored. */
export const encodeValue = (value: unknown, insideArray = false): unknown => {
  if (typeof value === 'string') return encodeString(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => encodeValue(item, true));
    return insideArray ? { [NESTED_ARRAY]: items } : items;
  }
  if (value !== null && typeof value === 'object') {
    const encoded: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) encoded[encodeKey(key)] = encodeValue(inner);
    return encoded;
  }
  return value;
};

export const decodeValue = (value: unknown): unknown => {
  if (typeof value === 'string') return decodeEscapes(value);
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === NESTED_ARRAY) return decodeValue((value as Record<string, unknown>)[NESTED_ARRAY]);
    const decoded: Record<string, unknown> = {};
    for (const key of keys) decoded[decodeEscapes(key)] = decodeValue((value as Record<string, unknown>)[key]);
    return decoded;
  }
  return value;
};

/** A character of a regular expression that matches exactly it (RE2 and PCRE alike). */
const literalChar = (c: string): string => {
  if (/[\\^$.*+?()[\]{}|/-]/.test(c)) return `\\${c}`;
  const code = c.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : c;
};

/** The text as a regular expression that matches exactly it: metacharacters and control characters escaped. */
export const literalPattern = (text: string): string => Array.from(text, literalChar).join('');

/**
 * A pattern that finds `text` in encoded strings. An encoded needle that starts with U+0001 or U+0002 could
 * also match from the middle of an escape pair (the second half of U+0001 U+0002 is U+0002): such a needle
 * is anchored behind whole code units from the start, so it only matches where a character starts.
 */
export const containsPattern = (text: string): string => {
  const encoded = encodeString(text);
  const pattern = literalPattern(encoded);
  return /^[\u0001\u0002]/.test(encoded) ? `^(?:[^\\x01]|\\x01[\\x01\\x02])*?${pattern}` : pattern;
};
