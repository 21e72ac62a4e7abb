/**
 * Reads until the value passes `ok` (by default for 3 s, every 30 ms), and returns the last value read: the
 * assertions after it say what was wrong. Media (frames, audio, a page's analyser) arrives at the machine's
 * pace: give it a longer bound instead of waiting a fixed time.
 */
export const readUntil = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, { timeoutMs = 3000, everyMs = 30 } = {}): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await read();
  }
  return value;
};
