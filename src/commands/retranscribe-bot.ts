import * as E from 'fp-ts/Either';
import type { BotConfig } from '../domain/bot/bot-config';
import type { BotRejection } from '../domain/bot/bot-decider';
import type { Sealed } from '../domain/codec-helpers';
import { handleBotCommand, loadBotFacts } from './bot-commands';
import { nowIso, type CommandDeps } from './command-deps';

/** A re-transcribe's provider and options, the key sealed. */
export interface TranscriptionOrder {
  readonly provider: string;
  readonly api_key: Sealed | null;
  readonly custom_params: Record<string, unknown> | null;
}

/**
 * The transcription the bot asked for, to fill in what a re-transcribe leaves out: the one it ran with
 * (every bot that can be transcribed has been queued); null when it asked for none.
 */
export const transcriptionOfBot = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotConfig['transcription']> =>
  (await loadBotFacts(deps, botId))?.run_config?.transcription ?? null;

export interface RetranscribeAccepted {
  readonly request_id: string;
  readonly position: bigint | null;
}

/** Asks for the completed bot's recording to be transcribed again; the transcriber does the work. */
export const retranscribeBot = async (deps: CommandDeps, botId: string, order: TranscriptionOrder): Promise<E.Either<BotRejection, RetranscribeAccepted>> => {
  const request_id = deps.newId();
  const result = await handleBotCommand(deps, botId, { type: 'RequestTranscription', request_id, ...order, retranscribe: true, now: nowIso(deps) });
  return E.map((handled: { readonly position: bigint | null }) => ({ request_id, position: handled.position }))(result);
};
