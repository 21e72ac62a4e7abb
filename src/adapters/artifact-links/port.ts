export interface ArtifactLink {
  readonly url: string;
  readonly expires_at: string;
}

/** Download links for a bot's artifacts, valid for a limited time, minted by whoever holds the artifact. */
export interface ArtifactLinks {
  /** By key; null for a key with nothing to serve (lost, expired, unknown). One call per bot, whatever the number of keys. */
  readonly linksFor: (botId: string, keys: readonly string[]) => Promise<ReadonlyMap<string, ArtifactLink | null>>;
  /** An artifact's bytes, for what the service itself shows of it (a legacy transcript); null when nothing is kept. */
  readonly contentOf: (botId: string, key: string) => Promise<Buffer | null>;
}
