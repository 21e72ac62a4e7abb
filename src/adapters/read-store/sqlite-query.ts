import { checkStartAfter, effectiveOrder } from './memory-query';
import type { Between, Contains, FieldValue, FindQuery, SortKey } from './port';

/**
 * Read-store queries as SQL over a table of JSON documents (`id`, `position`, `doc`), compiled so that the
 * order and the matches are the memory store's and MongoDB's (the contract suite holds all three to it).
 *
 * A field is read through one expression, `sortable`, whose value SQLite orders as MongoDB orders values:
 * SQLite sorts NULL < numbers < text < blobs, and text by its UTF-8 bytes (code point order). JSON null and
 * missing fields are NULL, numbers and strings are themselves, and booleans become the blobs x'00' and x'01'
 * (json_extract would give 0 and 1, numbers). Objects and arrays are not FieldValues; they become the blob
 * of their JSON, after every boolean, only so that the order stays deterministic. Indexes are declared on
 * the same expressions, so that SQLite answers a team's page from an index in order.
 */

export type SqlValue = string | number | Buffer | null;

/** One field of a document: its JSON path, and the expressions that read it. */
interface Field {
  readonly isId: boolean;
  /** the SQL of its value in the order of the store (see above) */
  readonly sortable: string;
  /** json_type of the field (null: missing), or 'text' for the id */
  readonly type: string;
  /** the raw value as json_extract gives it */
  readonly raw: string;
}

const quoteLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** `a.b` as the JSON path `$."a"."b"`; segments are names from code or encoded by the caller. */
const jsonPath = (field: string): string => {
  const segments = field.split('.');
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('$') || segment.includes('"')) throw new Error(`field path ${JSON.stringify(field)}: a segment is empty, starts with $ or holds a double quote`);
  }
  return quoteLiteral(`$${segments.map((s) => `."${s}"`).join('')}`);
};

export const fieldOf = (field: string): Field => {
  if (field === 'id') return { isId: true, sortable: 'id', type: "'text'", raw: 'id' };
  const path = jsonPath(field);
  const raw = `json_extract(doc, ${path})`;
  const type = `json_type(doc, ${path})`;
  const sortable = `(CASE ${type} WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' WHEN 'object' THEN CAST(${raw} AS BLOB) WHEN 'array' THEN CAST(${raw} AS BLOB) ELSE ${raw} END)`;
  return { isId: false, sortable, type, raw };
};

/** A value as `sortable` gives it: booleans as their blobs. */
export const sqlValue = (value: FieldValue): SqlValue => {
  if (typeof value === 'boolean') return Buffer.from([value ? 1 : 0]);
  return value;
};

/** The ORDER BY terms of one key, also the columns of an index for it. */
export const orderTerms = (key: SortKey): string[] => {
  const { sortable } = fieldOf(key.field);
  const direction = key.direction === 'asc' ? 'ASC' : 'DESC';
  // NULL sorts first ascending and last descending, as MongoDB sorts null and missing; `last` moves it last in both.
  return key.missing === 'last' ? [`(${sortable} IS NULL) ASC`, `${sortable} ${direction}`] : [`${sortable} ${direction}`];
};

interface Condition {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

const equal = (field: string, value: FieldValue): Condition => {
  const { sortable } = fieldOf(field);
  // `null` also matches a missing field (json_extract gives NULL for both), as in MongoDB.
  return value === null ? { sql: `${sortable} IS NULL`, params: [] } : { sql: `${sortable} = ?`, params: [sqlValue(value)] };
};

/** Like MongoDB's $gt, $gte and $lte: only values of the bound's type compare. */
const ofTypeOf = (field: Field, value: string | number): string =>
  typeof value === 'string' ? `${field.type} = 'text'` : `${field.type} IN ('integer', 'real')`;

const compared = (fieldName: string, operator: '>' | '>=' | '<=', value: string | number): Condition => {
  const field = fieldOf(fieldName);
  return { sql: `(${ofTypeOf(field, value)} AND ${field.raw} ${operator} ?)`, params: [value] };
};

const between = ({ field, gte, lte }: Between): Condition[] => [
  ...(gte !== undefined ? [compared(field, '>=', gte)] : []),
  ...(lte !== undefined ? [compared(field, '<=', lte)] : []),
];

/** A substring of the string, or of any string of the array; instr compares bytes, NUL included. */
const contains = ({ field: name, text }: Contains): Condition => {
  const field = fieldOf(name);
  if (field.isId) return { sql: 'instr(id, ?) > 0', params: [text] };
  const path = jsonPath(name);
  return {
    sql: `((${field.type} = 'text' AND instr(${field.raw}, ?) > 0) OR (${field.type} = 'array' AND EXISTS (SELECT 1 FROM json_each(doc, ${path}) AS item WHERE item.type = 'text' AND instr(item.value, ?) > 0)))`,
    params: [text, text],
  };
};

const NOTHING: Condition = { sql: '0', params: [] };

/** The documents strictly after `value` in the order of `key`. */
const strictlyAfter = (key: SortKey, value: FieldValue): Condition => {
  const { sortable } = fieldOf(key.field);
  if (value === null) {
    // Null sorts first ascending: everything else comes after it; descending, or missing-last, nothing does.
    return key.direction === 'asc' && key.missing !== 'last' ? { sql: `${sortable} IS NOT NULL`, params: [] } : NOTHING;
  }
  const beyond = `${sortable} ${key.direction === 'asc' ? '>' : '<'} ?`;
  // Null comes after every value descending, and in both directions when missing-last.
  const nullAfter = key.direction === 'desc' || key.missing === 'last';
  return { sql: nullAfter ? `(${beyond} OR ${sortable} IS NULL)` : beyond, params: [sqlValue(value)] };
};

/** (k1 after v1) or (k1 is v1 and k2 after v2) or ... */
const keyset = (keys: readonly SortKey[], values: readonly FieldValue[]): Condition => {
  const alternatives = keys.map((key, i) => {
    const parts: Condition[] = keys.slice(0, i).map((before, j) => ({ sql: `${fieldOf(before.field).sortable} IS ?`, params: [sqlValue(values[j]!)] }));
    parts.push(strictlyAfter(key, values[i]!));
    return { sql: `(${parts.map((p) => p.sql).join(' AND ')})`, params: parts.flatMap((p) => p.params) };
  });
  return { sql: `(${alternatives.map((a) => a.sql).join(' OR ')})`, params: alternatives.flatMap((a) => a.params) };
};

export const whereConditions = (where: FindQuery['where']): Condition[] => Object.entries(where ?? {}).map(([field, value]) => equal(field, value));

export interface CompiledSql {
  /** everything after `FROM <table>` */
  readonly tail: string;
  readonly params: readonly SqlValue[];
}

const whereClause = (conditions: readonly Condition[]): CompiledSql =>
  conditions.length === 0
    ? { tail: '', params: [] }
    : { tail: ` WHERE ${conditions.map((c) => c.sql).join(' AND ')}`, params: conditions.flatMap((c) => c.params) };

export const compileFind = (query: FindQuery): CompiledSql => {
  const order = effectiveOrder(query.orderBy);
  checkStartAfter(query, order);
  const conditions: Condition[] = whereConditions(query.where);
  if (query.greaterThan) conditions.push(compared(query.greaterThan.field, '>', query.greaterThan.value));
  for (const bounds of query.between ?? []) conditions.push(...between(bounds));
  for (const condition of query.contains ?? []) conditions.push(contains(condition));
  // startAfter carries only the caller's keys: the implicit id tie-breaker is not part of the cursor.
  if (query.startAfter) conditions.push(keyset(order.slice(0, query.startAfter.length), query.startAfter));
  const where = whereClause(conditions);
  const limit = query.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(query.limit))}`;
  return { tail: `${where.tail} ORDER BY ${order.flatMap(orderTerms).join(', ')}${limit}`, params: where.params };
};

export const compileCount = (where: FindQuery['where']): CompiledSql => whereClause(whereConditions(where));
