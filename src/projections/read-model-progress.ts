/**
 * How far the read models this process reads have come: the projector's own progress when it projects
 * them itself (memory), or the shared projector's checkpoint when they live in MongoDB. Writers wait on it
 * so that a POST is readable at once (read-your-writes), from any instance.
 */
export interface ReadModelProgress {
  /** The last position every read model reflects; null before the first event. */
  readonly position: bigint | null;
  /** Resolves true once every read model reflects `position`, false after `timeoutMs`. */
  waitForPosition(position: bigint | null, timeoutMs?: number): Promise<boolean>;
  /**
   * Resolves once the read models reflect the log as it is now (false after `timeoutMs`): what a read on
   * one instance waits for when another instance may have just written (each projects on its own).
   */
  waitForLog?(timeoutMs: number): Promise<boolean>;
}
