import type { ControlOutcome } from './control-hub';

export type { ControlOutcome };

/** Reaches a running bot, wherever it runs, and returns its answer. */
export interface BotControl {
  send(botId: string, body: { readonly kind: 'leave' } | { readonly kind: 'chat'; readonly message: string }, timeoutMs: number): Promise<ControlOutcome>;
}
