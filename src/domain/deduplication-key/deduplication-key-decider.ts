import * as E from 'fp-ts/Either';
import type { Decider } from '../decider';
import type { LockReleaseReason } from '../meeting-lock/meeting-lock-events';
import type { DeduplicationKeyEvent } from './deduplication-key-events';

/**
 * Claims the key for a new bot. Whether the current holder has ended lives in the holder's own stream,
 * so the caller looks it up and names it here (`ended_bot_id`); a holder not named is taken as active.
 */
export interface ClaimDeduplicationKey {
  readonly type: 'ClaimDeduplicationKey';
  readonly team_id: string;
  readonly deduplication_key: string;
  readonly bot_id: string;
  readonly ended_bot_id: string | null;
  readonly now: string;
}

/** Takes back the claim of a bot that was never created. Idempotent: a bot not holding the key is nothing. */
export interface ReleaseDeduplicationKey {
  readonly type: 'ReleaseDeduplicationKey';
  readonly bot_id: string;
  readonly reason: LockReleaseReason;
  readonly now: string;
}

export type DeduplicationKeyCommand = ClaimDeduplicationKey | ReleaseDeduplicationKey;

export interface DeduplicationKeyRejection {
  readonly code: 'BOT_ALREADY_EXISTS';
  readonly message: string;
  readonly existing_bot_id: string;
}

export interface DeduplicationKeyState {
  readonly holder: { readonly team_id: string; readonly deduplication_key: string; readonly bot_id: string } | null;
}

const initialState = (): DeduplicationKeyState => ({ holder: null });

const accept = (...events: DeduplicationKeyEvent[]) => E.right<DeduplicationKeyRejection, readonly DeduplicationKeyEvent[]>(events);

const claim = (command: ClaimDeduplicationKey, { holder }: DeduplicationKeyState) => {
  // The same bot claiming again is a retry of its creation.
  if (holder?.bot_id === command.bot_id) return accept();
  if (holder !== null && holder.bot_id !== command.ended_bot_id) {
    return E.left<DeduplicationKeyRejection, readonly DeduplicationKeyEvent[]>({
      code: 'BOT_ALREADY_EXISTS',
      message: 'An active bot of this team already has this deduplication_key',
      existing_bot_id: holder.bot_id,
    });
  }
  const { team_id, deduplication_key, bot_id, now } = command;
  return accept({ type: 'DeduplicationKeyClaimed', data: { team_id, deduplication_key, bot_id, previous_bot_id: holder?.bot_id ?? null, at: now } });
};

const release = (command: ReleaseDeduplicationKey, { holder }: DeduplicationKeyState) => {
  if (holder?.bot_id !== command.bot_id) return accept();
  return accept({ type: 'DeduplicationKeyReleased', data: { ...holder, reason: command.reason, at: command.now } });
};

const decide = (command: DeduplicationKeyCommand, state: DeduplicationKeyState) =>
  command.type === 'ClaimDeduplicationKey' ? claim(command, state) : release(command, state);

const evolve = (state: DeduplicationKeyState, event: DeduplicationKeyEvent): DeduplicationKeyState => {
  switch (event.type) {
    case 'DeduplicationKeyClaimed': {
      const { team_id, deduplication_key, bot_id } = event.data;
      return { holder: { team_id, deduplication_key, bot_id } };
    }
    case 'DeduplicationKeyReleased':
      // The bot never existed: the key is free again.
      return state.holder?.bot_id === event.data.bot_id ? { holder: null } : state;
  }
};

export const deduplicationKeyDecider: Decider<DeduplicationKeyCommand, DeduplicationKeyEvent, DeduplicationKeyState, DeduplicationKeyRejection> = {
  decide,
  evolve,
  initialState,
};
