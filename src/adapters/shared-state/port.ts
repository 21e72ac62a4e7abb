/**
 * What processes sharing the stores must agree on that is neither an event nor a checkpoint: counters of
 * fixed windows (the per-team rate limit, which must hold across api instances) and the bots' last
 * contact (whichever instance a bot called). Kept beside the checkpoints (SQLite for processes on one
 * host, PostgreSQL, MongoDB); every implementation passes test/adapters/shared-state.contract.ts.
 */
export interface SharedState {
  /**
   * Adds one to the counter `name` of the window `window` and returns its value after: 1 for the first
   * call. Atomic across processes: n calls, however they race, return 1..n, each once.
   */
  countUp(name: string, window: number): Promise<number>;
  /** Forgets every counter of a window before `window` (they only grow the store). */
  dropWindowsBefore(window: number): Promise<void>;
  /** The bot called the service at `atMs` (epoch ms, the caller's clock). */
  noteContact(botId: string, atMs: number): Promise<void>;
  /** When each of these bots last called the service, if ever. */
  lastContacts(botIds: readonly string[]): Promise<ReadonlyMap<string, number>>;
  close(): Promise<void>;
}
