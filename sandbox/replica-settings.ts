/** Checking a replica flavour's settings in a create request: a 400 naming the field for a bad value. */
import { SandboxError } from './meeting-state';

export const oneOf = <T extends string>(value: unknown, allowed: readonly T[], name: string): T => {
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw new SandboxError(400, `${name} must be one of ${allowed.join(', ')}`);
  return value as T;
};

export const number = (value: unknown, name: string, min: number, max: number, integer = false): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new SandboxError(400, `${name} must be a${integer ? ' whole' : ''} number from ${min} to ${max}`);
  }
  return value;
};

export const flag = (value: unknown, name: string, fallback: boolean): boolean => {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new SandboxError(400, `${name} must be a boolean`);
  return value;
};

/** A setting of `allowed` values, the first one when absent. */
export const choiceOf = <T extends string>(body: Readonly<Record<string, unknown>>, name: string, allowed: readonly T[]): T =>
  body[name] === undefined ? allowed[0]! : oneOf(body[name], allowed, name);
