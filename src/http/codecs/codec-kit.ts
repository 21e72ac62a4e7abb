import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { type ApiError, validationError } from '../api-error';
import { described, type SchemaNote } from './schema-notes';

/**
 * io-ts building blocks whose failures carry a sentence in ajv's words ("must NOT have more than 255
 * characters"), so that a failure reads `<location>/<field path> <sentence>` like the Fastify errors the
 * FST_ERR_* codes come from.
 */
type Check<A> = (u: unknown) => E.Either<string, A>;

/**
 * `schema` is the leaf's rules as the OpenAPI document states them (src/http/openapi): a leaf without one
 * cannot appear in a documented request, and the document's test says so.
 */
export const leaf = <A>(name: string, check: Check<A>, schema?: SchemaNote): t.Type<A, unknown, unknown> => {
  const codec = new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => E.isRight(check(u)),
    (u, c) => {
      const result = check(u);
      return E.isRight(result) ? t.success(result.right) : t.failure(u, c, result.left);
    },
    t.identity,
  );
  return schema === undefined ? codec : described(codec, schema);
};

/** Lengths count code points, as ajv does: an emoji is one character to the caller, not two. */
export const lengthOf = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export const checkLength = (s: string, min: number, max: number): E.Either<string, string> => {
  const n = lengthOf(s);
  if (n < min) return E.left(`must NOT have fewer than ${min} characters`);
  if (n > max) return E.left(`must NOT have more than ${max} characters`);
  return E.right(s);
};

export const str = (min: number, max: number) =>
  leaf<string>(`string(${min}..${max})`, (u) => (typeof u === 'string' ? checkLength(u, min, max) : E.left('must be string')), {
    type: 'string',
    minLength: min,
    maxLength: max,
  });

export const bool = leaf<boolean>('boolean', (u) => (typeof u === 'boolean' ? E.right(u) : E.left('must be boolean')), { type: 'boolean' });

export const int = (min: number, max: number) =>
  leaf<number>(`integer(${min}..${max})`, (u) => {
    if (typeof u !== 'number' || !Number.isInteger(u)) return E.left('must be an integer');
    if (u < min) return E.left(`must be an integer >= ${min}`);
    if (u > max) return E.left(`must be an integer <= ${max}`);
    return E.right(u + 0); // -0 becomes 0
  }, { type: 'integer', minimum: min, maximum: max });

export const oneOf = <V extends string | number>(values: readonly V[]) =>
  leaf<V>(values.join('|'), (u) =>
    values.includes(u as V) ? E.right(u as V) : E.left(`must be equal to one of the allowed values: ${values.join(', ')}`),
    { type: typeof values[0] === 'number' ? 'integer' : 'string', enum: [...values] },
  );

export const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

/** Free-form JSON object (`extra`, `custom_params`): any keys, but an object, never an array. */
export const jsonObject = leaf<Record<string, unknown>>('object', (u) => (isPlainObject(u) ? E.right(u) : E.left('must be object')), {
  type: 'object',
  additionalProperties: true,
});

const urlWithScheme = (u: unknown, schemes: readonly string[], max: number): E.Either<string, string> => {
  const wanted = `must be a URL with scheme ${schemes.map((s) => s.replace(':', '')).join(' or ')}`;
  if (typeof u !== 'string') return E.left(`${wanted} (a string)`);
  if (lengthOf(u) > max) return E.left(`must NOT have more than ${max} characters`);
  try {
    const parsed = new URL(u);
    return schemes.includes(parsed.protocol) && parsed.hostname !== '' ? E.right(u) : E.left(wanted);
  } catch {
    return E.left(wanted);
  }
};

export const httpsUrl = leaf<string>('https-url', (u) => urlWithScheme(u, ['https:'], 2048), {
  type: 'string',
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]://[^/?#]',
  maxLength: 2048,
});
export const wsUrl = leaf<string>('ws-url', (u) => urlWithScheme(u, ['ws:', 'wss:'], 2048), {
  type: 'string',
  format: 'uri',
  pattern: '^[Ww][Ss][Ss]?://[^/?#]',
  maxLength: 2048,
});

/**
 * JSON Schema's `email` (RFC 5321's ASCII address): a dot-atom of at most 64 characters before the @, a
 * dotted domain of letters, digits and hyphens after it, each label at most 63. Not stricter than that: the mail server (and the
 * platform an account signs in to) is the real judge.
 */
const EMAIL = /^(?=[^@]{1,64}@)[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
export const email = leaf<string>(
  'email',
  (u) => (typeof u === 'string' && u.length <= 254 && EMAIL.test(u) ? E.right(u) : E.left('must match format "email"')),
  { type: 'string', format: 'email', pattern: EMAIL.source, maxLength: 254 },
);

/** Arrays check their size first, then each item under its index in the path. */
export class ArrayOf<A> extends t.Type<A[], unknown, unknown> {
  constructor(
    readonly item: t.Type<A, unknown, unknown>,
    readonly min: number,
    readonly max: number,
  ) {
    const items = t.array(item);
    super(
      `array(${min}..${max})`,
      items.is,
      (u, c) => {
        if (!Array.isArray(u)) return t.failure(u, c, 'must be array');
        if (u.length < min) return t.failure(u, c, `must NOT have fewer than ${min} items`);
        if (u.length > max) return t.failure(u, c, `must NOT have more than ${max} items`);
        return items.validate(u, c);
      },
      t.identity,
    );
  }
}

export const arrayOf = <A>(item: t.Type<A, unknown, unknown>, min: number, max: number): ArrayOf<A> => new ArrayOf(item, min, max);

/**
 * Absent or null reads as the default (a fresh value each time, so no caller shares a mutable array).
 * Its own class so that `strictObject` can tell optional fields from required ones.
 */
export class Defaulted<A, D> extends t.Type<A | D, unknown, unknown> {
  constructor(
    readonly codec: t.Type<A, unknown, unknown>,
    readonly fallback: () => D,
  ) {
    super(
      codec.name,
      (u): u is A | D => codec.is(u),
      (u, c) => (u === undefined || u === null ? t.success(fallback()) : codec.validate(u, c)),
      t.identity,
    );
  }
}

export const withDefault = <A, D = A>(codec: t.Type<A, unknown, unknown>, fallback: () => D): t.Type<A | D, unknown, unknown> =>
  new Defaulted(codec, fallback);

export const nullable = <A>(codec: t.Type<A, unknown, unknown>) => withDefault(codec, () => null);

const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

const failAt = <A>(c: t.Context, key: string, value: unknown, message: string) =>
  t.failure<A>(value, t.appendContext(c, key, t.unknown, value), message);

/**
 * An object with a fixed set of fields: anything else is refused under its own name, so a typo such as
 * `silence_timout` fails loudly instead of being ignored.
 */
export class StrictObject<P extends t.Props> extends t.Type<t.TypeOf<t.TypeC<P>>, unknown, unknown> {
  constructor(
    name: string,
    readonly props: P,
    /** what the object as a whole means, and the rules between its fields (the OpenAPI document states it) */
    readonly description?: string,
  ) {
    const inner = t.type(props);
    super(
      name,
      (u): u is t.TypeOf<typeof inner> => isPlainObject(u) && Object.keys(u).every((k) => own(props, k)) && inner.is(u),
      (u, c) => {
        if (!isPlainObject(u)) return t.failure(u, c, 'must be object');
        const unknownKey = Object.keys(u).find((k) => !own(props, k));
        if (unknownKey !== undefined) return failAt(c, unknownKey, u[unknownKey], 'is not an allowed property');
        const missing = Object.keys(props).find((k) => !isOptional(props[k]!) && u[k] === undefined);
        if (missing !== undefined) return failAt(c, missing, undefined, 'is required');
        return inner.validate(u, c);
      },
      t.identity,
    );
  }
}

/**
 * A value given either as text or as an object (the official client sends either): the value's JSON type
 * picks the codec, so a refusal names what is wrong in the shape the caller chose.
 */
export class TextOrObject<A> extends t.Type<A, unknown, unknown> {
  constructor(
    name: string,
    readonly text: t.Type<A, unknown, unknown>,
    readonly object: t.Type<A, unknown, unknown>,
  ) {
    super(name, (u): u is A => text.is(u) || object.is(u), (u, c) => (typeof u === 'string' ? text.validate(u, c) : object.validate(u, c)), t.identity);
  }
}

export const textOrObject = <A>(name: string, text: t.Type<A, unknown, unknown>, object: t.Type<A, unknown, unknown>): TextOrObject<A> =>
  new TextOrObject(name, text, object);

/** A field that may be left out (it reads as its default). */
export const isOptional = (codec: t.Mixed): boolean => codec instanceof Defaulted;

export const strictObject = <P extends t.Props>(name: string, props: P, description?: string): StrictObject<P> => new StrictObject(name, props, description);

/** The first failure as a 400 naming its path under `location` (`body`, `querystring`, `params`). */
export const firstError = (location: string, errors: t.Errors): ApiError => {
  const first = errors[0];
  if (!first) return validationError(location, 'is invalid');
  const path = first.context
    .slice(1)
    .map((entry) => entry.key)
    .filter((key) => key !== '');
  const last = first.context[first.context.length - 1];
  return validationError([location, ...path].join('/'), first.message ?? `must be ${last?.type.name ?? 'valid'}`);
};

/** Passes a decoded value on unless `problem` names one (a rule relating fields, an option not delivered). */
export const unlessProblem =
  <A>(problem: (value: A) => ApiError | null) =>
  (decoded: E.Either<ApiError, A>): E.Either<ApiError, A> =>
    E.chain((value: A) => {
      const found = problem(value);
      return found === null ? E.right(value) : E.left(found);
    })(decoded);

export const decodeWith = <A>(codec: t.Decoder<unknown, A>, location: string, input: unknown): E.Either<ApiError, A> =>
  E.mapLeft((errors: t.Errors) => firstError(location, errors))(codec.decode(input));
