/** One HTTP request to a team's receiver, and what became of it. */
export interface WebhookRequest {
  readonly url: string;
  readonly method: 'POST' | 'PUT';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Answered with a status (any status: the caller judges it), or never answered, with why. */
export type WebhookResponse = { readonly status_code: number } | { readonly error: string };

export interface WebhookHttp {
  send(request: WebhookRequest, timeoutMs: number): Promise<WebhookResponse>;
}
