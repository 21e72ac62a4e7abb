import { deduplicationKeyDecider, type ClaimDeduplicationKey } from '../../src/domain/deduplication-key/deduplication-key-decider';
import { DeduplicationKeyEvent } from '../../src/domain/deduplication-key/deduplication-key-events';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(deduplicationKeyDecider, DeduplicationKeyEvent);

const TEAM = 'team-0001';
const KEY = 'meeting-42:weekly';
const T0 = '2025-03-03T09:00:00.000Z';
const T1 = at(T0, { m: 1 });

const claim = (bot_id: string, now: string, ended_bot_id: string | null = null): ClaimDeduplicationKey => ({
  type: 'ClaimDeduplicationKey',
  team_id: TEAM,
  deduplication_key: KEY,
  bot_id,
  ended_bot_id,
  now,
});
const claimed = (bot_id: string, when: string, previous_bot_id: string | null = null): DeduplicationKeyEvent => ({
  type: 'DeduplicationKeyClaimed',
  data: { team_id: TEAM, deduplication_key: KEY, bot_id, previous_bot_id, at: when },
});
const released = (bot_id: string, when: string): DeduplicationKeyEvent => ({
  type: 'DeduplicationKeyReleased',
  data: { team_id: TEAM, deduplication_key: KEY, bot_id, reason: 'creation_aborted', at: when },
});
const release = (bot_id: string, now: string) => ({ type: 'ReleaseDeduplicationKey' as const, bot_id, reason: 'creation_aborted' as const, now });

describe('deduplication key decider (one active bot per team and key)', () => {
  it('the first bot with a key claims it', () => {
    spec.given([]).when(claim('bot-1', T0)).then([claimed('bot-1', T0)]);
  });

  it('a second bot is refused while the holder is active, naming the holder', () => {
    spec.given([claimed('bot-1', T0)]).when(claim('bot-2', T1)).thenRejects({
      code: 'BOT_ALREADY_EXISTS',
      existing_bot_id: 'bot-1',
      message: 'An active bot of this team already has this deduplication_key',
    });
  });

  it('however long ago the holder was created: only its end frees the key', () => {
    spec.given([claimed('bot-1', T0)]).when(claim('bot-2', at(T0, { h: 30 }))).thenRejects({ code: 'BOT_ALREADY_EXISTS' });
  });

  it('a bot claims the key of a holder known to have ended, and the claim names that holder', () => {
    spec.given([claimed('bot-1', T0)]).when(claim('bot-2', T1, 'bot-1')).then([claimed('bot-2', T1, 'bot-1')]);
  });

  it('an ended bot named that is not the holder frees nothing (the holder changed since it was looked up)', () => {
    spec.given([claimed('bot-1', T0), claimed('bot-2', T1, 'bot-1')]).when(claim('bot-3', at(T1, { s: 1 }), 'bot-1')).thenRejects({
      code: 'BOT_ALREADY_EXISTS',
      existing_bot_id: 'bot-2',
    });
  });

  it('the holder claiming again (a retried creation) is nothing', () => {
    spec.given([claimed('bot-1', T0)]).when(claim('bot-1', T1)).thenNothing();
  });

  it('the claim of a bot never created is released, and the key is free again', () => {
    spec.given([claimed('bot-1', T0)]).when(release('bot-1', T1)).then([released('bot-1', T1)]);
    spec.given([claimed('bot-1', T0), released('bot-1', T1)]).when(claim('bot-2', T1)).then([claimed('bot-2', T1)]);
  });

  it('releasing a bot that does not hold the key is nothing (idempotent)', () => {
    spec.given([]).when(release('bot-1', T1)).thenNothing();
    spec.given([claimed('bot-1', T0), released('bot-1', T1)]).when(release('bot-1', T1)).thenNothing();
    spec.given([claimed('bot-2', T0)]).when(release('bot-1', T1)).thenNothing();
  });
});
