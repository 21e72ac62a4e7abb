/** A bench's size from its environment variable, or the default: a positive whole number, else the bench stops. */
export const intFromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got ${process.env[name]}`);
  return value;
};
