import { lengthOf } from './codec-kit';

export const MAX_TM_GUEST_NAME_LENGTH = 50;

/**
 * The spec's tm guest-name rules: letters, digits, spaces and ' ’ . _ @ - · ・ only. A "letter" is a
 * Unicode letter with any combining marks that follow it (Hindi or Thai vowel signs, a decomposed ë),
 * but not variation selectors, which turn characters into emoji; emoji themselves are not letters.
 * Spaces are U+0020 only. The linear regex has disjoint alternatives, so it cannot backtrack badly.
 */
const ALLOWED = /^(?:\p{L}(?:(?![\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Mn}\p{Mc}])*|\p{Nd}|[ '’._@·・-])*$/u;

/** Why the platform would refuse `name` for a guest, or null when it is acceptable. */
export const tmGuestNameProblem = (name: string): string | null => {
  const suffix = 'for a tm meeting';
  if (lengthOf(name) > MAX_TM_GUEST_NAME_LENGTH) return `must NOT have more than ${MAX_TM_GUEST_NAME_LENGTH} characters ${suffix}`;
  if (!ALLOWED.test(name)) return `must contain only letters, digits, spaces and ' ’ . _ @ - · ・ ${suffix}`;
  if (name.includes('  ')) return `must NOT contain consecutive spaces ${suffix}`;
  if (name.startsWith('.')) return `must NOT start with a period ${suffix}`;
  if (name.endsWith('.')) return `must NOT end with a period ${suffix}`;
  if (name.includes('..')) return `must NOT contain consecutive periods ${suffix}`;
  return null;
};
