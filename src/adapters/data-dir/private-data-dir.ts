import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * DATA_DIR holds the event log, the checkpoints, the artifacts and the service secret: only the service's
 * own user may enter it (mode 0700), so that a bot (another user, README "Security") reads none of it,
 * whatever modes the files inside have. A folder that was open to others is closed at start.
 * Returns the mode it had when it was wider, to be logged; null otherwise.
 */
export const makePrivateDataDir = (dir: string): number | null => {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  try {
    chmodSync(dir, 0o700);
  } catch (err) {
    throw new Error(`DATA_DIR ${dir} is open to other users (mode ${mode.toString(8)}) and cannot be closed: ${(err as Error).message}`);
  }
  return mode;
};
