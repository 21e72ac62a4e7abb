import { createHash } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { isTerminal } from '../domain/bot/bot-status';
import { deduplicationKeyDecider } from '../domain/deduplication-key/deduplication-key-decider';
import { DeduplicationKeyEvent, deduplicationKeyStreamName } from '../domain/deduplication-key/deduplication-key-events';
import { loadBot } from './bot-commands';
import { nowIso, type CommandDeps } from './command-deps';
import { handleCommand, loadState } from './handle-command';

export interface DeduplicationClaim {
  readonly team_id: string;
  readonly deduplication_key: string;
  readonly bot_id: string;
}

/** The key's stream of a team: exact text, so `Weekly` and `weekly` are two keys. */
export const deduplicationKeyStreamFor = (teamId: string, key: string): string =>
  deduplicationKeyStreamName(teamId, createHash('sha256').update(key).digest('hex').slice(0, 32));

const hasEnded = async (deps: CommandDeps, botId: string): Promise<boolean> => {
  const bot = await loadBot(deps, botId);
  // A holder whose stream is empty is being created right now (or its creation died, which the orphan
  // reconciler repairs by releasing the claim): it counts as active.
  return bot.kind === 'present' && isTerminal(bot.status);
};

const MAX_LOOKUPS = 5;

/**
 * Claims a team's deduplication key for a new bot, atomically (the key's own stream, appended with its
 * expected revision). The holder's end is in the holder's stream: it is looked up first and named to the
 * decider; when the holder changed in between, the claim looks again.
 */
export const claimDeduplicationKey = async (deps: CommandDeps, claim: DeduplicationClaim) => {
  const stream = deduplicationKeyStreamFor(claim.team_id, claim.deduplication_key);
  for (let lookup = 1; ; lookup++) {
    const { holder } = await loadState(deps.eventStore, stream, deduplicationKeyDecider, DeduplicationKeyEvent);
    const ended = holder !== null && holder.bot_id !== claim.bot_id && (await hasEnded(deps, holder.bot_id)) ? holder.bot_id : null;
    const result = await handleCommand(deps.eventStore, stream, deduplicationKeyDecider, DeduplicationKeyEvent, {
      type: 'ClaimDeduplicationKey',
      ...claim,
      ended_bot_id: ended,
      now: nowIso(deps),
    });
    const holderChanged = E.isLeft(result) && result.left.existing_bot_id !== holder?.bot_id;
    if (!holderChanged || lookup >= MAX_LOOKUPS) return result;
  }
};

/** Takes back the claim of a bot that was never created. Idempotent. */
export const releaseDeduplicationKey = (deps: CommandDeps, claim: DeduplicationClaim) =>
  handleCommand(deps.eventStore, deduplicationKeyStreamFor(claim.team_id, claim.deduplication_key), deduplicationKeyDecider, DeduplicationKeyEvent, {
    type: 'ReleaseDeduplicationKey',
    bot_id: claim.bot_id,
    reason: 'creation_aborted',
    now: nowIso(deps),
  });
