/**
 * How the legacy list's searchable fields are stored, shared by the projection that writes them and the
 * query that reads them: the read store compares exactly, so every rule of the legacy API's matching
 * (case-insensitive, string comparison of `extra` values) is applied here, once, to both sides.
 */

/** Case folding for "case-insensitive partial match": lower case, composed (NFC). */
export const foldForSearch = (text: string): string => text.toLowerCase().normalize('NFC');

/**
 * The stored name of an `extra` field. User field names may hold `.`, `$` or NUL, which a document path
 * (or a BSON key) cannot: those (and `%`, the escape itself) are percent-escaped, and a prefix keeps the
 * empty name and names like `__proto__` ordinary.
 */
export const extraTextKey = (field: string): string =>
  `k_${field.replace(/[%.$\u0000]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}`;

/** The path of an `extra` field's text in a legacy bot document. */
export const extraTextPath = (field: string): string => `extra_text.${extraTextKey(field)}`;

/**
 * An `extra` value as the text that filters and sorts compare: a string as itself, any other value as its
 * JSON (`42`, `true`, `{"a":1}`). A null value is no value: the bot counts as not having the field.
 */
export const extraValueText = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

export const extraTexts = (extra: Readonly<Record<string, unknown>> | null): Record<string, string> => {
  const texts: Record<string, string> = {};
  for (const [field, value] of Object.entries(extra ?? {})) {
    const text = extraValueText(value);
    if (text !== null) texts[extraTextKey(field)] = text;
  }
  return texts;
};
