/** Download links for a bot's artifacts, valid for a limited time, minted by whoever serves the artifact. */
export interface ArtifactLinks {
  /** A download URL for an artifact key, valid for a limited time; null when it cannot be served. */
  readonly urlFor: (botId: string, key: string) => { readonly url: string; readonly expires_at: string } | null;
}
