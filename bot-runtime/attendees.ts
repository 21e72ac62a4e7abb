/** Who counts as an attendee for the automatic-leave rules. Pure. */

export interface SeenParticipant {
  readonly id: string;
  readonly name: string;
}

const norm = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** Ignored names match whole display names, case-insensitively, ignoring surrounding and repeated spaces. */
export const isIgnoredName = (name: string, ignored: readonly string[]): boolean =>
  ignored.some((n) => norm(n) === norm(name));

/**
 * The participants that count: everyone but the bot itself and ignored names. The bot is known by
 * its participant id once the page shows it; before that, by its display name (one entry only, so
 * another participant with the same name still counts).
 */
export const countedAttendees = (
  participants: readonly SeenParticipant[],
  self: { readonly id: string | null; readonly name: string },
  ignored: readonly string[],
): SeenParticipant[] => {
  let selfDropped = false;
  return participants.filter((p) => {
    const isSelf = self.id !== null ? p.id === self.id : !selfDropped && norm(p.name) === norm(self.name);
    if (isSelf) {
      selfDropped = true;
      return false;
    }
    return !isIgnoredName(p.name, ignored);
  });
};
