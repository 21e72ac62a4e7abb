import * as t from 'io-ts';
import { ArrayOf, Defaulted, StrictObject, TextOrObject } from '../codecs/codec-kit';
import { schemaNoteOf, type JsonSchema } from '../codecs/schema-notes';

/** A codec the document cannot describe: the message says where to describe it. */
export class UndescribedCodec extends Error {
  constructor(name: string, path: string) {
    super(
      `the codec "${name}" at ${path || '(top)'} has no JSON Schema: give its leaf a schema (leaf(name, check, schema) in ` +
        'src/http/codecs/codec-kit.ts) or wrap it with described(codec, schema) from src/http/codecs/schema-notes.ts',
    );
  }
}

/** A value a JSON document can hold as a default (functions, undefined and the like are left out). */
const jsonDefault = (value: unknown): unknown => (value === undefined || value === null ? undefined : JSON.parse(JSON.stringify(value)));

/** The schema that also admits null: every optional field of our requests reads null as "not given". */
export const orNull = (schema: JsonSchema): JsonSchema => {
  const { type, enum: values } = schema;
  if (typeof type === 'string') {
    return { ...schema, type: [type, 'null'], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) };
  }
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  // What describes the field as a whole stays outside the union (Swagger UI and the client read it there).
  const { default: fallback, description, examples, ...rest } = schema;
  return {
    anyOf: [rest, { type: 'null' }],
    ...(fallback === undefined ? {} : { default: fallback }),
    ...(description === undefined ? {} : { description }),
    ...(examples === undefined ? {} : { examples }),
  };
};

type AnyCodec = t.Decoder<unknown, unknown> & { readonly name: string };

const tagOf = (codec: AnyCodec): string | undefined => (codec as { _tag?: string })._tag;

/**
 * The JSON Schema of a codec the routers decode with (codec-kit's building blocks, notes given with
 * `described`) or a plain io-ts codec (the response shapes): one source for what is checked and what is
 * documented. `path` names where in the document the codec is, for the error when one cannot be described.
 */
export const jsonSchemaOf = (codec: AnyCodec, path = ''): JsonSchema => {
  const note = schemaNoteOf(codec);
  if (note !== undefined) return note;
  if (codec instanceof Defaulted) {
    const inner = jsonSchemaOf(codec.codec, path);
    const fallback = jsonDefault(codec.fallback());
    return orNull(fallback === undefined ? inner : { ...inner, default: fallback });
  }
  if (codec instanceof StrictObject) {
    const object = objectSchema(codec.props as t.Props, path, false);
    return codec.description === undefined ? object : { ...object, description: codec.description };
  }
  if (codec instanceof TextOrObject) return { anyOf: [jsonSchemaOf(codec.text, `${path}/anyOf/0`), jsonSchemaOf(codec.object, `${path}/anyOf/1`)] };
  if (codec instanceof ArrayOf) return { type: 'array', items: jsonSchemaOf(codec.item, `${path}/items`), minItems: codec.min, maxItems: codec.max };
  const c = codec as t.Mixed;
  switch (tagOf(codec)) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
      return {};
    case 'UnknownRecordType':
    case 'AnyDictionaryType':
      return { type: 'object', additionalProperties: true };
    case 'LiteralType':
      return { const: (c as t.LiteralC<string>).value };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys((c as t.KeyofC<Record<string, unknown>>).keys) };
    case 'InterfaceType':
      return objectSchema((c as t.TypeC<t.Props>).props, path, true);
    case 'PartialType':
      return objectSchema((c as t.PartialC<t.Props>).props, path, true, true);
    case 'ExactType':
    case 'ReadonlyType':
      return jsonSchemaOf((c as t.ExactC<t.HasProps>).type, path);
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: jsonSchemaOf((c as t.ArrayC<t.Mixed>).type, `${path}/items`) };
    case 'DictionaryType':
      return { type: 'object', additionalProperties: jsonSchemaOf((c as t.RecordC<t.StringC, t.Mixed>).codomain, `${path}/*`) };
    case 'UnionType':
      return unionSchema((c as t.UnionC<[t.Mixed, t.Mixed]>).types.map((member, i) => jsonSchemaOf(member, `${path}/anyOf/${i}`)));
    case 'IntersectionType':
      return intersectionSchema((c as t.IntersectionC<[t.Mixed, t.Mixed]>).types.map((member, i) => jsonSchemaOf(member, `${path}/allOf/${i}`)));
    case 'RefinementType':
      return jsonSchemaOf((c as t.RefinementC<t.Mixed>).type, path);
    default:
      throw new UndescribedCodec(codec.name, path);
  }
};

/**
 * Request objects (strict) refuse unknown fields: `additionalProperties: false`. Response objects leave it
 * open, so that a field added later does not break a client; the tests hold responses to the exact fields.
 */
const objectSchema = (props: t.Props, path: string, open: boolean, allOptional = false): JsonSchema => {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, codec] of Object.entries(props)) {
    properties[key] = jsonSchemaOf(codec, `${path}/${key}`);
    if (!allOptional && !(codec instanceof Defaulted)) required.push(key);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(open ? {} : { additionalProperties: false }) };
};

/** `null | X` reads better as a nullable X than as a union (and the client's type says `X | null`). */
const unionSchema = (members: JsonSchema[]): JsonSchema => {
  const isNull = (s: JsonSchema) => s.type === 'null' && Object.keys(s).length === 1;
  const others = members.filter((m) => !isNull(m));
  if (others.length === 1 && others.length < members.length) return orNull(others[0]!);
  const nullable = others.length < members.length;
  const consts = others.every((m) => 'const' in m && Object.keys(m).length === 1) ? others.map((m) => m.const) : null;
  if (consts !== null) {
    const strings = consts.every((v) => typeof v === 'string');
    return { ...(strings ? { type: nullable ? ['string', 'null'] : 'string' } : {}), enum: nullable ? [...consts, null] : consts };
  }
  return { anyOf: nullable ? [...others, { type: 'null' }] : others };
};

/** t.intersection of objects (a response that adds fields to another): one object with all of them. */
const intersectionSchema = (members: JsonSchema[]): JsonSchema => {
  if (!members.every((m) => m.type === 'object' && m.properties !== undefined)) return { allOf: members };
  const properties = Object.assign({}, ...members.map((m) => m.properties)) as Record<string, JsonSchema>;
  const required = [...new Set(members.flatMap((m) => (m.required as string[] | undefined) ?? []))];
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
};
