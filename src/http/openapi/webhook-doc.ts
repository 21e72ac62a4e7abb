import type { SchemaSource } from './operation-doc';

export interface WebhookHeaderDoc {
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
}

/** One webhook the service sends, as the document's `webhooks` describes it. */
export interface WebhookDoc {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** the component its body is published as */
  readonly name: string;
  readonly schema: SchemaSource;
  readonly headers: readonly WebhookHeaderDoc[];
  readonly example?: unknown;
}

/** Webhooks by the name they have in the document (`bot.completed`, `legacy.complete`, ...). */
export type WebhookDocs = Readonly<Record<string, WebhookDoc>>;
