/**
 * The `tm` platform's rules for a guest display name (spec, `bot_name`): at most 50 characters; only
 * letters, digits, spaces and ' ’ . _ @ - · ・; no consecutive spaces; no leading, trailing or
 * consecutive periods. Returns null when the name is acceptable, otherwise why it is not.
 */
export function tmGuestNameProblem(name: string): string | null {
  const chars = [...name];
  if (name.trim().length === 0) return 'the name is empty';
  if (chars.length > 50) return 'the name is longer than 50 characters';
  // Letters (with their combining marks), decimal digits, the ASCII space and ' ’ . _ @ - · ・
  const allowed = /^[\p{L}\p{M}\p{Nd} '\u2019._@\-\u00B7\u30FB]$/u;
  const bad = chars.find((c) => !allowed.test(c));
  if (bad !== undefined) return `the name contains a character that is not allowed: ${JSON.stringify(bad)}`;
  if (name.includes('  ')) return 'the name contains consecutive spaces';
  if (name.startsWith('.')) return 'the name starts with a period';
  if (name.endsWith('.')) return 'the name ends with a period';
  if (name.includes('..')) return 'the name contains consecutive periods';
  return null;
}

/** Every platform: a display name is 1 to 255 characters and not only white space. */
export function displayNameProblem(name: string): string | null {
  if (typeof name !== 'string' || name.trim().length === 0) return 'the name is empty';
  if ([...name].length > 255) return 'the name is longer than 255 characters';
  if (/[\u0000-\u001F\u007F]/.test(name)) return 'the name contains a control character';
  return null;
}
