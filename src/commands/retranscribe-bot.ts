import * as E from 'fp-ts/Either';
import type { BotConfig } from '../domain/bot/bot-config';
import type { BotRejection } from '../domain/bot/bot-decider';
import { BotCreated, botStreamName } from '../domain/bot/bot-events';
import type { Sealed } from '../domain/codec-helpers';
import { handleBotCommand } from './bot-commands';
import { nowIso, type CommandDeps } from './command-deps';
import { decodeRecordedEvent } from './decode-recorded-event';

/** A re-transcribe's provider and options, the key sealed. */
export interface TranscriptionOrder {
  readonly provider: string;
  readonly api_key: Sealed | null;
  readonly custom_params: Record<string, unknown> | null;
}

/** The bot's configuration, to fill in what a re-transcribe leaves out; null for an unknown bot. */
export const configOfBot = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotConfig | null> => {
  const [first] = await deps.eventStore.readStream(botStreamName(botId));
  return first ? decodeRecordedEvent(BotCreated, first).data.config : null;
};

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
