/**
 * The collections of the checkpoint store (subscribers' checkpoints and leases) in the read store's
 * database. Rebuilding the read models drops every other collection but must not touch these: a webhook
 * sender whose checkpoint vanished would send the whole history again.
 */
export const SUBSCRIBER_CHECKPOINTS = '_subscriber_checkpoints';
export const LEASES = '_leases';

export const KEPT_BY_DROP_ALL: ReadonlySet<string> = new Set([SUBSCRIBER_CHECKPOINTS, LEASES]);
