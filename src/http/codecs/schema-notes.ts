import * as t from 'io-ts';

/**
 * A JSON Schema (2020-12, OpenAPI 3.1's dialect) fragment. Kept loose: the OpenAPI document is JSON, and
 * what it must say is checked by the tests against the service itself.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** What a codec looks like on the wire, for codecs the OpenAPI document cannot work out by itself. */
export type SchemaNote = JsonSchema | (() => JsonSchema);

const notes = new WeakMap<object, SchemaNote>();

/**
 * Gives a codec its JSON Schema (src/http/openapi/json-schema-of.ts reads it): a leaf's rules (lengths,
 * formats, patterns) as the document states them. Returns the codec, so that it reads as a wrapper.
 */
export const described = <C extends t.Decoder<unknown, unknown>>(codec: C, schema: SchemaNote): C => {
  notes.set(codec, schema);
  return codec;
};

export const schemaNoteOf = (codec: object): JsonSchema | undefined => {
  const note = notes.get(codec);
  return typeof note === 'function' ? note() : note;
};

/**
 * A leaf shared by several fields, as one field states it: the same rules, with what the field adds
 * (`description` first, then the leaf's own; `writeOnly` for a secret). The shared leaf keeps its schema.
 */
export const explained = <A, O>(codec: t.Type<A, O, unknown>, note: JsonSchema & { readonly description: string }): t.Type<A, O, unknown> => {
  const base = schemaNoteOf(codec);
  if (base === undefined) throw new Error(`explained: the codec "${codec.name}" has no schema of its own to add to`);
  const description = typeof base.description === 'string' ? `${note.description} ${base.description}` : note.description;
  return described(new t.Type<A, O, unknown>(codec.name, codec.is, codec.validate, codec.encode), { ...base, ...note, description });
};
