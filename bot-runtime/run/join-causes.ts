/** How a page that refused the bot ends the run: its join error, or the platform's wall. Pure. */
import type { WallKind } from '../drivers/page-driver';
import { isNameRefusal } from '../drivers/sandbox/sandbox-hooks';
import type { EndCause } from '../end-codes';

/**
 * The end cause of a `join-error`. The platform refusing the bot's name is a refusal of the bot
 * (`BOT_NOT_ACCEPTED`: "refused by participants or platform"); anything else is a failure to join
 * (`CANNOT_JOIN_MEETING`: "unreachable or nonexistent"), the platform's words in the message.
 */
export const joinErrorCause = (joinError: string | null): EndCause => {
  const why = joinError ?? 'unknown reason';
  if (isNameRefusal(why)) return { kind: 'denied', message: `The platform refused the bot's name: ${why}` };
  return { kind: 'cannot_join', message: `Joining failed: ${why}` };
};

/**
 * The end cause of a wall: only signed-in users -> the sign-in codes; a platform that keeps bots out
 * whatever the host does (Zoom's bot wall) -> `CANNOT_JOIN_MEETING`; a refusal of this bot (Meet's "You
 * can't join this video call") -> `BOT_NOT_ACCEPTED`. `words`: the page's own, as `: "…"` or empty.
 */
export const wallCause = (wall: WallKind | null, words: string): EndCause => {
  if (wall === 'login_required') return { kind: 'login_required', message: `The meeting lets only signed-in users in${words}.` };
  if (wall === 'cannot_join') return { kind: 'cannot_join', message: `The platform keeps bots out of this meeting${words}.` };
  return { kind: 'denied', message: `The platform does not let the bot in${words}.` };
};

