import type * as t from 'io-ts';
import type { JsonSchema } from '../codecs/schema-notes';

/** A codec the routers use (its JSON Schema is worked out from it), or a JSON Schema where no codec exists. */
export type SchemaSource = (t.Decoder<unknown, unknown> & { readonly name: string }) | JsonSchema;

export const isCodec = (source: SchemaSource): source is t.Decoder<unknown, unknown> & { readonly name: string } =>
  typeof (source as { decode?: unknown }).decode === 'function';

export interface BodyDoc {
  /** the component it is published as (`#/components/schemas/<name>`) */
  readonly name: string;
  readonly schema: SchemaSource;
  /** false: the body may be left out (the route reads it as "no changes" or "the defaults") */
  readonly required: boolean;
  readonly examples: Readonly<Record<string, { readonly summary: string; readonly value: unknown }>>;
  /** `application/json` unless said (a browser's form: `application/x-www-form-urlencoded`) */
  readonly mediaType?: string;
}

export interface ResponseDoc {
  readonly description: string;
  readonly schema: SchemaSource;
  /** the component it is published as; unnamed shapes are written in place */
  readonly name?: string;
  /** v2 answers `{success: true, data}` around the shape; the legacy API answers the shape itself */
  readonly envelope: boolean;
  readonly example?: unknown;
  /** `application/json` unless said */
  readonly mediaType?: string;
}

/** A query parameter: its schema and whether it must be given. */
export interface ParameterDoc {
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly description?: string;
}

/**
 * One route as the OpenAPI document describes it, written beside its router (`*-router-doc.ts`). What can be
 * derived is not written here: path parameters come from the route's path, who may call it from the Sending
 * Access rule (middleware/sending-access.ts), and the errors every route of its kind answers (401, 403, 429,
 * 400 for its input, 413 and 415 for its body) from what it takes.
 */
export interface OperationDoc {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly body?: BodyDoc;
  /** the codec the route decodes its query with (a strictObject), or its parameters one by one */
  readonly query?: SchemaSource | Readonly<Record<string, ParameterDoc>>;
  /** the route reads an empty query value (`status=`) as a parameter not given (the legacy routes) */
  readonly emptyQueryValueIsAbsent?: true;
  readonly responses: Readonly<Record<number, ResponseDoc>>;
  /** the error codes this route answers beyond the ones derived, by status */
  readonly errors?: Readonly<Record<number, readonly string[]>>;
  /** answered without an API key */
  readonly noKey?: true;
  /**
   * A route for browsers and other systems (our SAML identity provider): it answers in its own media types, each
   * status it answers in `responses`; no error is derived, and the envelope answers only the `errors` listed.
   */
  readonly ownMediaTypes?: true;
}

/** Routes by `METHOD /path/{param}` (the path as koa-router registers it, `:param` written `{param}`). */
export type RouteDocs = Readonly<Record<string, OperationDoc>>;

/** A v2 answer: `{success: true, data: <shape>}`. */
export const v2Answer = (description: string, schema: SchemaSource, name?: string, example?: unknown): ResponseDoc => ({
  description,
  schema,
  envelope: true,
  ...(name === undefined ? {} : { name }),
  ...(example === undefined ? {} : { example }),
});

/**
 * A v2 answer with fields beside `data` (the official client's batch and page shapes): the body itself, its
 * codec carrying `success` and `data`.
 */
export const v2WholeAnswer = (description: string, schema: SchemaSource, name?: string): ResponseDoc => ({
  description,
  schema,
  envelope: false,
  ...(name === undefined ? {} : { name }),
});

/** A legacy answer: the shape itself. */
export const legacyAnswer = (description: string, schema: SchemaSource, name?: string, example?: unknown): ResponseDoc => ({
  description,
  schema,
  envelope: false,
  ...(name === undefined ? {} : { name }),
  ...(example === undefined ? {} : { example }),
});

export const jsonBody = (name: string, schema: SchemaSource, examples: BodyDoc['examples'], required = true): BodyDoc => ({ name, schema, required, examples });
