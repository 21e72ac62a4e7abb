/**
 * Reads until `ok` holds (what a background worker does shows up in the API a little later); mocha's
 * timeout bounds it, so a condition that never comes fails the test there.
 */
export const eventually = async <T>(read: () => Promise<T>, ok: (value: T) => boolean, everyMs = 100): Promise<T> => {
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
};
