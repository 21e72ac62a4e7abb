import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { arrayOf, bool, int, leaf, nullable, oneOf, str, strictObject, withDefault } from '../../src/http/codecs/codec-kit';
import { explained } from '../../src/http/codecs/schema-notes';
import { jsonSchemaOf, UndescribedCodec } from '../../src/http/openapi/json-schema-of';

/** The rules the routers decode with, as the OpenAPI document states them. */
describe('the JSON Schema of the codecs the routers decode with', () => {
  it('states lengths, bounds, enums, defaults, optional fields taking null, and refuses unknown fields', () => {
    const codec = strictObject('Request', {
      name: str(1, 255),
      count: withDefault(int(0, 10), () => 3),
      mode: withDefault(oneOf(['a', 'b'] as const), () => 'a' as const),
      tags: withDefault(arrayOf(str(1, 20), 0, 5), (): string[] => []),
      note: nullable(str(0, 500)),
      on: bool,
    });
    assert.deepEqual(jsonSchemaOf(codec), {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 255 },
        count: { type: ['integer', 'null'], minimum: 0, maximum: 10, default: 3 },
        mode: { type: ['string', 'null'], enum: ['a', 'b', null], default: 'a' },
        tags: { type: ['array', 'null'], items: { type: 'string', minLength: 1, maxLength: 20 }, minItems: 0, maxItems: 5, default: [] },
        note: { type: ['string', 'null'], minLength: 0, maxLength: 500 },
        on: { type: 'boolean' },
      },
      required: ['name', 'on'],
      additionalProperties: false,
    });
  });

  it('describes io-ts answers: unions with null as nullable, literals as enums, intersections as one object', () => {
    const answer = t.intersection([t.type({ id: t.string, kind: t.union([t.literal('x'), t.literal('y')]), at: t.union([t.number, t.null]) }), t.partial({ extra: t.UnknownRecord })]);
    assert.deepEqual(jsonSchemaOf(answer), {
      type: 'object',
      properties: { id: { type: 'string' }, kind: { type: 'string', enum: ['x', 'y'] }, at: { type: ['number', 'null'] }, extra: { type: 'object', additionalProperties: true } },
      required: ['id', 'kind', 'at'],
    });
  });

  it('states what one field adds to a shared leaf (its description, write-only) and what an object says of its fields, leaving the leaf as it was', () => {
    const shared = str(1, 8);
    const codec = strictObject(
      'Body',
      { token: nullable(explained(shared, { description: 'A token.', writeOnly: true })), plain: nullable(shared) },
      'One of the two at most.',
    );
    assert.deepEqual(jsonSchemaOf(codec), {
      type: 'object',
      properties: {
        token: { type: ['string', 'null'], minLength: 1, maxLength: 8, description: 'A token.', writeOnly: true },
        plain: { type: ['string', 'null'], minLength: 1, maxLength: 8 },
      },
      additionalProperties: false,
      description: 'One of the two at most.',
    });
    assert.ok(E.isLeft(codec.decode({ token: '' })), 'the field keeps the leaf\'s rules');
    assert.deepEqual(codec.decode({ token: 'abc' }), E.right({ token: 'abc', plain: null }));
  });

  it('refuses a leaf without a schema, naming where it is and what to do', () => {
    const bare = leaf<string>('secret_sauce', (u) => (typeof u === 'string' ? E.right(u) : E.left('must be string')));
    assert.throws(() => jsonSchemaOf(strictObject('Body', { sauce: bare })), (error: unknown) => {
      assert.ok(error instanceof UndescribedCodec);
      assert.match(error.message, /"secret_sauce" at \/sauce has no JSON Schema: give its leaf a schema \(leaf\(name, check, schema\)/);
      return true;
    });
  });
});
