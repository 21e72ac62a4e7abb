type Json = Readonly<Record<string, unknown>>;

const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);

/** The value at `path`, or undefined when any step of it is absent. */
export const valueAt = (data: Json, path: readonly string[]): unknown => {
  let here: unknown = data;
  for (const step of path) {
    if (!isObject(here)) return undefined;
    here = here[step];
  }
  return here;
};

/** A copy of `data` with `value` at `path`, which must exist (the objects on the way are copied, the rest shared). */
export const withValueAt = (data: Json, path: readonly string[], value: unknown): Record<string, unknown> => {
  const [step, ...rest] = path;
  if (step === undefined) throw new Error('an empty path');
  return { ...data, [step]: rest.length === 0 ? value : withValueAt(data[step] as Json, rest, value) };
};
