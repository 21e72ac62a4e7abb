import * as t from 'io-ts';
import { UUID_SCHEMA } from '../path-uuid';
import { described, type JsonSchema } from '../schema-notes';

/**
 * Building blocks of the response shapes: plain io-ts codecs (the routers' answers are typed with them, so
 * the compiler holds a route to its documented shape) with the formats the OpenAPI document states.
 */

/** A string codec of its own, so that a format noted on it is not noted on every `t.string`. */
export const text = (schema: JsonSchema = {}): t.Type<string, string, unknown> =>
  described(new t.Type<string, string, unknown>('string', t.string.is, t.string.validate, t.identity), { type: 'string', ...schema });

export const integer = (schema: JsonSchema = {}): t.Type<number, number, unknown> =>
  described(new t.Type<number, number, unknown>('integer', t.number.is, t.number.validate, t.identity), { type: 'integer', ...schema });

export const decimal = (schema: JsonSchema = {}): t.Type<number, number, unknown> =>
  described(new t.Type<number, number, unknown>('number', t.number.is, t.number.validate, t.identity), { type: 'number', ...schema });

export const dateTime = text({ format: 'date-time' });
export const uri = text({ format: 'uri' });
export const uuid = text({ format: UUID_SCHEMA.format });

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** Any JSON object the caller gave (`extra`) or a provider sent (`raw`). */
export const anyObject = t.UnknownRecord;

/** A value whose shape is the caller's or another system's (an event's data in a bot's audit). */
export const anyValue = t.unknown;

/** The v2 answer: `{success: true, data}`. */
export const enveloped = <C extends t.Mixed>(data: C) => t.type({ success: t.literal(true), data });

/** A plain message a write answers with. */
export const Message = t.type({ message: t.string });
