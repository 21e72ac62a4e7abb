/** Reads until the value passes `ok` (or 100 reads 30 ms apart), and returns the last value read: the assertions after it say what was wrong. */
export const readUntil = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
  let value = await read();
  for (let i = 0; i < 100 && !ok(value); i++) {
    await new Promise((r) => setTimeout(r, 30));
    value = await read();
  }
  return value;
};
