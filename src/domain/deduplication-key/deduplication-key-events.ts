import * as t from 'io-ts';
import { eventCodec, IsoInstant, nullableField } from '../codec-helpers';
import { LockReleaseReason } from '../meeting-lock/meeting-lock-events';

/**
 * A bot holds its team's deduplication key: while it is active, no other bot of the team may be created
 * with the same key. `previous_bot_id` is the ended bot that held the key before, if any.
 */
export const DeduplicationKeyClaimed = eventCodec('DeduplicationKeyClaimed', {
  team_id: t.string,
  deduplication_key: t.string,
  bot_id: t.string,
  previous_bot_id: nullableField(t.string),
  at: IsoInstant,
});

/** Takes back the claim of a bot that was never created (its creation was refused or failed later on). */
export const DeduplicationKeyReleased = eventCodec('DeduplicationKeyReleased', {
  team_id: t.string,
  deduplication_key: t.string,
  bot_id: t.string,
  reason: LockReleaseReason,
  at: IsoInstant,
});

export const DeduplicationKeyEvent = t.union([DeduplicationKeyClaimed, DeduplicationKeyReleased]);
export type DeduplicationKeyEvent = t.TypeOf<typeof DeduplicationKeyEvent>;

/** `keyHash` is a hash of the key, computed outside the domain: keys are free text. */
export const deduplicationKeyStreamName = (teamId: string, keyHash: string): string => `deduplication-key-${teamId}-${keyHash}`;
