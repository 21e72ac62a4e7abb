/**
 * The collections of the checkpoint store (subscribers' checkpoints and leases) in the read store's
 * database. Rebuilding the read models drops every other collection but must not touch these: a webhook
 * sender whose checkpoint vanished would send the whole history again.
 */
export const SUBSCRIBER_CHECKPOINTS = '_subscriber_checkpoints';
export const LEASES = '_leases';
/** Shared state: counters of fixed windows (rate limits) and bots' last contact. */
export const WINDOW_COUNTS = '_window_counts';
export const BOT_CONTACTS = '_bot_contacts';
/** Where subscribers' checkpoints were kept before, beside the projections' (read once, as a starting point). */
export const LEGACY_SUBSCRIBER_CHECKPOINTS = '_checkpoints';

export const KEPT_BY_DROP_ALL: ReadonlySet<string> = new Set([SUBSCRIBER_CHECKPOINTS, LEASES, WINDOW_COUNTS, BOT_CONTACTS]);
