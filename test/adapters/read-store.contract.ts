import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { compileQuery } from '../../src/adapters/read-store/memory-query';
import type { FieldValue, FindQuery, ReadDocument, ReadStore, SortKey } from '../../src/adapters/read-store/port';

/** Unique per test, so that tests sharing one database never see each other's documents. */
const uniqueName = (prefix: string): string => `${prefix}_${randomBytes(6).toString('hex')}`;

const ids = (docs: readonly ReadDocument[]): string[] => docs.map((d) => d.id);

/** The value at a dotted path, as a caller building a cursor reads it from a returned document. */
const pathValue = (doc: ReadDocument, path: string): FieldValue => {
  let value: unknown = doc;
  for (const segment of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
  return value === undefined ? null : (value as FieldValue);
};

/** Reads every page of `query` with `pageSize`, using the last document's sort values as the cursor. */
const readAllPages = async (store: ReadStore, collection: string, query: FindQuery, pageSize: number): Promise<string[]> => {
  const fields = query.orderBy && query.orderBy.length > 0 ? query.orderBy.map((k) => k.field) : ['id'];
  const seen: string[] = [];
  let startAfter: FieldValue[] | undefined;
  for (let page = 0; page < 100; page += 1) {
    const docs = await store.find(collection, { ...query, limit: pageSize, ...(startAfter ? { startAfter } : {}) });
    seen.push(...ids(docs));
    if (docs.length < pageSize) return seen;
    const last = docs[docs.length - 1];
    startAfter = fields.map((f) => pathValue(last, f));
  }
  throw new Error('pagination did not end after 100 pages');
};

export function readStoreContract(name: string, make: () => Promise<ReadStore>, cleanup?: () => Promise<void>): void {
  describe(`read store contract: ${name}`, function () {
    let store: ReadStore;
    let collection: string;

    beforeEach(async () => {
      store = await make();
      collection = uniqueName('docs');
    });
    afterEach(async () => {
      await store.close();
    });
    after(async () => {
      await cleanup?.();
    });

    describe('upsert and get', () => {
      it('round-trips a document with its position', async () => {
        const doc = { id: 'bot-1', status: 'joining', count: 3, ok: true, none: null, nested: { list: [1, 'a'], text: 'Grüße 🎙️' } };
        const position = 2n ** 60n + 7n;
        assert.equal(await store.upsert(collection, doc, position), true);
        assert.deepEqual(await store.get(collection, 'bot-1'), { doc, position });
      });

      it('returns null for a missing document', async () => {
        assert.equal(await store.get(collection, 'missing'), null);
      });

      it('changes nothing for an older or equal position: applying twice changes nothing', async () => {
        await store.upsert(collection, { id: 'a', version: 'v5' }, 5n);
        assert.equal(await store.upsert(collection, { id: 'a', version: 'v5-again' }, 5n), false);
        assert.equal(await store.upsert(collection, { id: 'a', version: 'v3' }, 3n), false);
        assert.deepEqual(await store.get(collection, 'a'), { doc: { id: 'a', version: 'v5' }, position: 5n });
      });

      it('replaces the whole document for a newer position', async () => {
        await store.upsert(collection, { id: 'a', version: 'v5', dropped: 'x' }, 5n);
        assert.equal(await store.upsert(collection, { id: 'a', version: 'v6' }, 6n), true);
        assert.deepEqual(await store.get(collection, 'a'), { doc: { id: 'a', version: 'v6' }, position: 6n });
      });

      it('compares positions as numbers, not as text', async () => {
        await store.upsert(collection, { id: 'a', at: 'nine' }, 9n);
        assert.equal(await store.upsert(collection, { id: 'a', at: 'ten' }, 10n), true);
        assert.equal(await store.upsert(collection, { id: 'a', at: 'two' }, 2n), false);
        assert.equal((await store.get(collection, 'a'))?.doc.at, 'ten');
      });

      it('keeps collections apart', async () => {
        const other = uniqueName('other');
        await store.upsert(collection, { id: 'same', where: 'first' }, 1n);
        await store.upsert(other, { id: 'same', where: 'second' }, 1n);
        assert.equal((await store.get(collection, 'same'))?.doc.where, 'first');
        assert.equal((await store.get(other, 'same'))?.doc.where, 'second');
      });

      it('is not changed by mutating objects passed in or returned', async () => {
        const doc = { id: 'a', tags: ['x'] };
        await store.upsert(collection, doc, 1n);
        doc.tags.push('mutated-input');
        const read = await store.get<{ id: string; tags: string[] }>(collection, 'a');
        read?.doc.tags.push('mutated-output');
        assert.deepEqual((await store.get(collection, 'a'))?.doc, { id: 'a', tags: ['x'] });
      });
    });

    describe('values a MongoDB wire-protocol server may refuse', () => {
      // NUL (FerretDB on PostgreSQL refuses it), the escape character U+0001 and its neighbour U+0002,
      // keys with dots, a leading $ or NUL (users' keys, as in a bot's `extra`), arrays inside arrays.
      const odd = [
        { id: 'o1', text: 'a\u0000b', order: 1 },
        { id: 'o2', text: 'a\u0001b', order: 2 },
        { id: 'o3', text: 'a\u0002b', order: 3 },
        { id: 'o4', text: 'a\u0001\u0002', order: 4 },
        { id: 'o5', text: 'ab', order: 5 },
        { id: 'o6', text: 'a', order: 6 },
        { id: 'id\u0000with nul', text: '\u0000', order: 7 },
      ];
      beforeEach(async () => {
        for (const [i, doc] of odd.entries()) await store.upsert(collection, doc, BigInt(i + 1));
      });

      it('round-trips them exactly', async () => {
        const doc = {
          id: 'keys',
          extra: { 'dotted.key': 1, $dollar: 'x', 'nul\u0000key': true, 'esc\u0001key': 'y', a$: 'inner dollar', nested: [[1, 2], ['a', [null]]], '': 'empty key' },
          list: [{ 'a.b': [[0]] }],
        };
        await store.upsert(collection, doc, 100n);
        assert.deepEqual((await store.get(collection, 'keys'))?.doc, doc);
        for (const one of odd) assert.deepEqual((await store.get(collection, one.id))?.doc, one, one.id);
      });

      it('matches, orders, bounds and pages them as the plain strings', async () => {
        const query = (q: FindQuery) => store.find(collection, { between: [{ field: 'order', lte: 7 }], ...q });
        assert.deepEqual(ids(await query({ where: { text: 'a\u0000b' } })), ['o1']);
        assert.deepEqual(ids(await query({ where: { text: 'a\u0001b' } })), ['o2']);
        assert.deepEqual(ids(await query({ where: { id: 'id\u0000with nul' } })), ['id\u0000with nul']);
        const textOrder: SortKey[] = [{ field: 'text', direction: 'asc' }];
        const { compare } = compileQuery({ orderBy: textOrder });
        const expected = [...odd].sort(compare).map((d) => d.id);
        assert.deepEqual(ids(await query({ orderBy: textOrder })), expected, 'code point order');
        assert.deepEqual(ids(await query({ orderBy: [{ field: 'text', direction: 'desc' }] })), [...expected].reverse());
        assert.deepEqual(ids(await query({ greaterThan: { field: 'text', value: 'a\u0001b' }, orderBy: textOrder })), expected.slice(expected.indexOf('o2') + 1));
        assert.deepEqual(await readAllPages(store, collection, { orderBy: textOrder }, 2), expected);
      });

      it('finds substrings only where a character starts', async () => {
        const found = async (text: string) => ids(await store.find(collection, { contains: [{ field: 'text', text }] })).sort();
        assert.deepEqual(await found('\u0000'), ['id\u0000with nul', 'o1']);
        assert.deepEqual(await found('\u0001'), ['o2', 'o4']);
        assert.deepEqual(await found('\u0002'), ['o3', 'o4'], 'the second half of an escaped U+0001 is not a U+0002');
        assert.deepEqual(await found('\u0002b'), ['o3']);
        assert.deepEqual(await found('a\u0001'), ['o2', 'o4']);
        assert.deepEqual(await found('\u0001\u0002'), ['o4']);
      });
    });

    describe('find and count', () => {
      const bots = [
        { id: 'b1', team: 't1', status: 'done', created: 10, name: 'delta' },
        { id: 'b2', team: 't1', status: 'live', created: 30, name: 'alpha' },
        { id: 'b3', team: 't2', status: 'live', created: 20, name: 'charlie' },
        { id: 'b4', team: 't1', status: 'live', created: 30, name: 'bravo' },
        { id: 'b5', team: 't1', status: 'done', created: 40, name: 'echo', note: null },
        { id: 'b6', team: 't2', status: 'done', created: 30, name: 'foxtrot' },
      ];
      beforeEach(async () => {
        for (const [i, bot] of bots.entries()) await store.upsert(collection, bot, BigInt(i + 1));
      });

      it('filters with where on several fields', async () => {
        const found = await store.find(collection, { where: { team: 't1', status: 'live' } });
        assert.deepEqual(ids(found).sort(), ['b2', 'b4']);
        assert.deepEqual(found.find((d) => d.id === 'b2'), bots[1]);
      });

      it('matches where null on null and on missing fields', async () => {
        assert.deepEqual(ids(await store.find(collection, { where: { note: null } })).sort(), ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']);
        assert.deepEqual(ids(await store.find(collection, { where: { id: 'b5', note: null } })), ['b5']);
      });

      it('filters with greaterThan on numbers and on strings (strictly greater)', async () => {
        assert.deepEqual(ids(await store.find(collection, { greaterThan: { field: 'created', value: 20 } })).sort(), ['b2', 'b4', 'b5', 'b6']);
        assert.deepEqual(ids(await store.find(collection, { greaterThan: { field: 'name', value: 'delta' } })).sort(), ['b5', 'b6']);
        assert.deepEqual(ids(await store.find(collection, { greaterThan: { field: 'id', value: 'b4' } })), ['b5', 'b6']);
      });

      it('orders by several keys, each in its own direction', async () => {
        const found = await store.find(collection, {
          orderBy: [
            { field: 'created', direction: 'desc' },
            { field: 'name', direction: 'asc' },
          ],
        });
        assert.deepEqual(ids(found), ['b5', 'b2', 'b4', 'b6', 'b3', 'b1']);
        const byStatus = await store.find(collection, {
          orderBy: [
            { field: 'status', direction: 'desc' },
            { field: 'created', direction: 'desc' },
            { field: 'id', direction: 'desc' },
          ],
        });
        assert.deepEqual(ids(byStatus), ['b4', 'b2', 'b3', 'b5', 'b6', 'b1']);
      });

      it('orders by id when no order is given, and honours limit', async () => {
        assert.deepEqual(ids(await store.find(collection, {})), ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']);
        assert.deepEqual(ids(await store.find(collection, { limit: 2 })), ['b1', 'b2']);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't2' }, limit: 1 })), ['b3']);
      });

      it('pages with startAfter: every document exactly once, in order, with ties on the first key', async () => {
        const query: FindQuery = {
          where: { team: 't1' },
          orderBy: [
            { field: 'created', direction: 'desc' },
            { field: 'id', direction: 'desc' },
          ],
        };
        const unpaged = ids(await store.find(collection, query));
        assert.deepEqual(unpaged, ['b5', 'b4', 'b2', 'b1']);
        for (const size of [1, 2, 3]) assert.deepEqual(await readAllPages(store, collection, query, size), unpaged, `page size ${size}`);
        const mixed: FindQuery = {
          orderBy: [
            { field: 'status', direction: 'asc' },
            { field: 'created', direction: 'desc' },
            { field: 'id', direction: 'asc' },
          ],
        };
        const all = ids(await store.find(collection, mixed));
        assert.deepEqual(all, ['b5', 'b6', 'b1', 'b2', 'b4', 'b3']);
        assert.deepEqual(await readAllPages(store, collection, mixed, 2), all);
      });

      it('starts after a cursor on the default id order', async () => {
        assert.deepEqual(ids(await store.find(collection, { startAfter: ['b4'] })), ['b5', 'b6']);
      });

      it('counts all documents or those matching where', async () => {
        assert.equal(await store.count(collection), 6);
        assert.equal(await store.count(collection, { team: 't2' }), 2);
        assert.equal(await store.count(collection, { team: 't1', status: 'done' }), 2);
        assert.equal(await store.count(uniqueName('empty')), 0);
      });
    });

    describe('mixed types', () => {
      // MongoDB's order: null and missing < numbers < strings < booleans; ties by id.
      const values: Array<[string, FieldValue | undefined]> = [
        ['m1', 'b'],
        ['m2', 2],
        ['m3', true],
        ['m4', null],
        ['m5', 'a'],
        ['m6', undefined],
        ['m7', -1.5],
        ['m8', false],
        ['m9', 10],
        ['m10', 'B'],
      ];
      beforeEach(async () => {
        for (const [id, value] of values) await store.upsert(collection, value === undefined ? { id } : { id, value }, 1n);
      });

      it('sorts deterministically across types, both directions', async () => {
        // null/missing tie-break by id: m4 < m6; 'B' (0x42) sorts before 'a' and 'b'.
        const expectedAsc = ['m4', 'm6', 'm7', 'm2', 'm9', 'm10', 'm5', 'm1', 'm8', 'm3'];
        const asc = ids(await store.find(collection, { orderBy: [{ field: 'value', direction: 'asc' }, { field: 'id', direction: 'asc' }] }));
        assert.deepEqual(asc, expectedAsc);
        const desc = ids(await store.find(collection, { orderBy: [{ field: 'value', direction: 'desc' }, { field: 'id', direction: 'desc' }] }));
        assert.deepEqual(desc, [...expectedAsc].reverse());
      });

      it('pages across types with startAfter, every document exactly once', async () => {
        for (const direction of ['asc', 'desc'] as const) {
          const query: FindQuery = { orderBy: [{ field: 'value', direction }, { field: 'id', direction }] };
          const unpaged = ids(await store.find(collection, query));
          assert.equal(unpaged.length, values.length);
          for (const size of [1, 3]) assert.deepEqual(await readAllPages(store, collection, query, size), unpaged, `${direction}, page size ${size}`);
        }
      });

      it('compares greaterThan within one type only', async () => {
        assert.deepEqual(ids(await store.find(collection, { greaterThan: { field: 'value', value: 0 } })).sort(), ['m2', 'm9']);
        assert.deepEqual(ids(await store.find(collection, { greaterThan: { field: 'value', value: 'a' } })), ['m1']);
      });
    });

    describe('paths, ranges, substrings and missing values last', () => {
      const people = [
        { id: 'p1', team: 't1', name_folded: 'alice cooper', at: '2025-01-01T10:00:00.000Z', tags: { k_deal: 'b', k_x: 'z' }, speakers: ['ana', 'bo'] },
        { id: 'p2', team: 't1', name_folded: 'bob (the) [builder]*', at: '2025-01-02T10:00:00.000Z', tags: { k_deal: 'a' }, speakers: [] },
        { id: 'p3', team: 't1', name_folded: 'zoë ñandú 🎙️ a.b', at: '2025-01-03T10:00:00.000Z', tags: {}, speakers: ['carla ñ'] },
        { id: 'p4', team: 't1', name_folded: 'nul\u0000byte', at: '2025-01-04T10:00:00.000Z', speakers: ['ana maria'] },
        { id: 'p5', team: 't2', name_folded: 'alice other team', at: '2025-01-05T10:00:00.000Z', tags: { k_deal: 'c' }, speakers: ['ana'] },
        { id: 'p6', team: 't1', name_folded: 'with-dash $dollar', at: '2025-01-01T10:00:00.000Z', tags: { k_deal: 'b' }, speakers: ['dan'] },
      ];
      beforeEach(async () => {
        for (const [i, person] of people.entries()) await store.upsert(collection, person, BigInt(i + 1));
      });

      it('matches where on a path into an embedded object, and null on a missing path', async () => {
        assert.deepEqual(ids(await store.find(collection, { where: { 'tags.k_deal': 'b' } })).sort(), ['p1', 'p6']);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't1', 'tags.k_deal': null } })).sort(), ['p3', 'p4']);
        assert.equal(await store.count(collection, { 'tags.k_deal': 'a' }), 1);
      });

      it('keeps inclusive bounds, one or both', async () => {
        const from = { field: 'at', gte: '2025-01-02T10:00:00.000Z' };
        assert.deepEqual(ids(await store.find(collection, { between: [from] })), ['p2', 'p3', 'p4', 'p5']);
        assert.deepEqual(ids(await store.find(collection, { between: [{ ...from, lte: '2025-01-03T10:00:00.000Z' }] })), ['p2', 'p3']);
        assert.deepEqual(ids(await store.find(collection, { between: [{ field: 'at', lte: '2025-01-01T10:00:00.000Z' }] })), ['p1', 'p6']);
        assert.deepEqual(ids(await store.find(collection, { between: [{ field: 'at', gte: 5 }] })), [], 'a number bound never matches strings');
        assert.deepEqual(ids(await store.find(collection, { between: [{ field: 'missing', gte: '' }] })), []);
      });

      it('finds substrings literally: metacharacters, NUL, non-ASCII, in strings and in arrays of strings', async () => {
        const found = async (field: string, text: string) => ids(await store.find(collection, { contains: [{ field, text }] })).sort();
        assert.deepEqual(await found('name_folded', 'alice'), ['p1', 'p5']);
        assert.deepEqual(await found('name_folded', '(the) [builder]*'), ['p2']);
        assert.deepEqual(await found('name_folded', '.'), ['p3']);
        assert.deepEqual(await found('name_folded', '$dollar'), ['p6']);
        assert.deepEqual(await found('name_folded', 'h-d'), ['p6']);
        assert.deepEqual(await found('name_folded', 'l\u0000b'), ['p4']);
        assert.deepEqual(await found('name_folded', 'ñandú 🎙️'), ['p3']);
        assert.deepEqual(await found('name_folded', 'ALICE'), [], 'the store never folds case');
        assert.deepEqual(await found('speakers', 'ana'), ['p1', 'p4', 'p5']);
        assert.deepEqual(await found('speakers', 'a m'), ['p4']);
        assert.deepEqual(await found('speakers', 'ñ'), ['p3']);
        assert.deepEqual(await found('tags', 'a'), [], 'an object is neither a string nor an array of strings');
        const both = await store.find(collection, { where: { team: 't1' }, contains: [{ field: 'name_folded', text: 'a' }, { field: 'speakers', text: 'an' }] });
        assert.deepEqual(ids(both).sort(), ['p1', 'p6']);
      });

      const byDeal = (direction: 'asc' | 'desc'): SortKey[] => [
        { field: 'tags.k_deal', direction, missing: 'last' },
        { field: 'at', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ];

      it('sorts documents missing the field last, in both directions', async () => {
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't1' }, orderBy: byDeal('asc') })), ['p2', 'p6', 'p1', 'p4', 'p3']);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't1' }, orderBy: byDeal('desc') })), ['p6', 'p1', 'p2', 'p4', 'p3']);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't1' }, orderBy: byDeal('asc'), limit: 2 })), ['p2', 'p6']);
      });

      it('pages through missing-last orders with startAfter, every document exactly once', async () => {
        for (const direction of ['asc', 'desc'] as const) {
          const query: FindQuery = { orderBy: byDeal(direction) };
          const unpaged = ids(await store.find(collection, query));
          assert.equal(unpaged.length, people.length);
          for (const size of [1, 2, 4]) assert.deepEqual(await readAllPages(store, collection, query, size), unpaged, `${direction}, page size ${size}`);
        }
      });

      it('combines every kind of condition with a cursor', async () => {
        const query: FindQuery = {
          where: { team: 't1' },
          between: [{ field: 'at', gte: '2025-01-01T10:00:00.000Z', lte: '2025-01-04T10:00:00.000Z' }],
          contains: [{ field: 'speakers', text: 'a' }],
          orderBy: byDeal('asc'),
        };
        assert.deepEqual(ids(await store.find(collection, query)), ['p6', 'p1', 'p4', 'p3']);
        assert.deepEqual(await readAllPages(store, collection, query, 1), ['p6', 'p1', 'p4', 'p3']);
      });

      it('answers the same with indexes declared, before or after the documents, as documents move between groups', async () => {
        const queries: FindQuery[] = [
          { where: { team: 't1' }, orderBy: byDeal('asc') },
          { where: { team: 't2' } },
          { where: { team: 't1' }, contains: [{ field: 'speakers', text: 'a' }], limit: 2 },
          { where: { 'tags.k_deal': 'b' } },
          {},
        ];
        const answers = async () => Promise.all(queries.map(async (q) => ids(await store.find(collection, q))));
        const counts = async () => [await store.count(collection, { team: 't1' }), await store.count(collection, { team: 't3' }), await store.count(collection)];
        const without = await answers();
        await store.ensureIndexes(collection, [[{ field: 'team', direction: 'asc' }, { field: 'at', direction: 'desc' }]]);
        assert.deepEqual(await answers(), without);
        await store.upsert(collection, { ...people[0], team: 't3' }, 100n);
        await store.upsert(collection, { id: 'p7', team: 't2', at: '2025-01-09T10:00:00.000Z', speakers: [] }, 101n);
        await store.upsert(collection, { id: 'p8', at: '2025-01-09T10:00:00.000Z' }, 102n);
        assert.deepEqual(await counts(), [4, 1, 8]);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't3' } })), ['p1']);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't2' } })), ['p5', 'p7']);
        assert.deepEqual(ids(await store.find(collection, { where: { team: null } })), ['p8']);
        const other = uniqueName('late');
        for (const [i, person] of people.entries()) await store.upsert(other, person, BigInt(i + 1));
        await store.ensureIndexes(other, [[{ field: 'team', direction: 'asc' }]]);
        assert.deepEqual(ids(await store.find(other, { where: { team: 't2' } })), ['p5']);
        await store.dropAll();
        await store.ensureIndexes(collection, [[{ field: 'team', direction: 'asc' }]]);
        await store.upsert(collection, { id: 'q1', team: 't1' }, 1n);
        assert.deepEqual(ids(await store.find(collection, { where: { team: 't1' } })), ['q1'], 'nothing left from before the drop');
      });

      it('accepts index definitions, twice and at the same time (processes starting together)', async () => {
        const indexes = [[{ field: 'team', direction: 'asc' as const }, { field: 'at', direction: 'desc' as const }, { field: 'id', direction: 'desc' as const }]];
        await store.ensureIndexes(collection, indexes);
        await store.ensureIndexes(collection, indexes);
        const fresh = uniqueName('fresh');
        await Promise.all([store.ensureIndexes(fresh, indexes), store.ensureIndexes(fresh, indexes), store.ensureIndexes(fresh, indexes)]);
        assert.equal(await store.count(collection), people.length);
      });
    });

    describe('a page of a large collection', () => {
      it('is the first documents of the whole order, whatever the page size', async () => {
        const docs = Array.from({ length: 300 }, (_, i) => ({ id: `d${String(i).padStart(3, '0')}`, score: (i * 7919) % 101, group: i % 3 === 0 ? 'a' : 'b' }));
        for (const [i, doc] of docs.entries()) await store.upsert(collection, doc, BigInt(i + 1));
        const orderBy: SortKey[] = [{ field: 'score', direction: 'desc' }, { field: 'id', direction: 'asc' }];
        const all = ids(await store.find(collection, { orderBy }));
        assert.equal(all.length, 300);
        for (const limit of [1, 3, 10, 37, 299, 300, 400]) assert.deepEqual(ids(await store.find(collection, { orderBy, limit })), all.slice(0, limit), `limit ${limit}`);
        const groupA = ids(await store.find(collection, { where: { group: 'a' }, orderBy }));
        assert.deepEqual(ids(await store.find(collection, { where: { group: 'a' }, orderBy, limit: 5 })), groupA.slice(0, 5));
      });
    });

    describe('pages among many writes', () => {
      /** A small deterministic generator (mulberry32), so that a failure replays. */
      const random = (seed: number) => () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };

      it('every page, after any sequence of writes that move documents between groups and places, is what reading everything gives', async () => {
        const next = random(20250303);
        const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
        const texts = ['alpha', 'Beta', 'beta', 'ünïcode', '🎙️ mic', 'z', ''];
        const makeDoc = (id: string): ReadDocument => {
          const doc: Record<string, unknown> = { id, g: pick(['a', 'b', 'c']), at: `2025-01-0${1 + Math.floor(next() * 9)}T00:00:00.000Z` };
          if (next() < 0.8) doc.n = Math.floor(next() * 5);
          if (next() < 0.7) doc.s = pick(texts);
          if (next() < 0.6) doc.t = { k: pick(texts) };
          if (next() < 0.5) doc.tags = [pick(texts), pick(texts)];
          return doc as ReadDocument;
        };
        // Each ends with the id: a cursor carries only the order's own keys, so they must be unique.
        const orders: SortKey[][] = [
          [{ field: 'at', direction: 'desc' }, { field: 'n', direction: 'desc' }, { field: 'id', direction: 'desc' }],
          [{ field: 't.k', direction: 'asc', missing: 'last' }, { field: 'at', direction: 'desc' }, { field: 'id', direction: 'asc' }],
          [{ field: 't.k', direction: 'desc', missing: 'last' }, { field: 'id', direction: 'asc' }],
          [{ field: 's', direction: 'asc' }, { field: 'n', direction: 'asc' }, { field: 'id', direction: 'desc' }],
          [{ field: 'n', direction: 'desc', missing: 'last' }, { field: 'id', direction: 'asc' }],
        ];
        const truth = new Map<string, ReadDocument>();
        await store.ensureIndexes(collection, [[{ field: 'g', direction: 'asc' }, { field: 'at', direction: 'desc' }]]);
        let position = 0n;
        const write = async (doc: ReadDocument) => {
          await store.upsert(collection, doc, ++position);
          truth.set(doc.id, doc);
        };
        for (let i = 0; i < 60; i++) await write(makeDoc(`d${i}`));
        for (let step = 0; step < 120; step++) {
          if (next() < 0.6) {
            // A new document, or a new version of one that may change its group and every sort field.
            await write(next() < 0.3 ? makeDoc(`d${truth.size}`) : makeDoc(pick([...truth.keys()])));
            continue;
          }
          const query: FindQuery = {
            where: { g: pick(['a', 'b', 'c']) },
            orderBy: pick(orders),
            ...(next() < 0.3 ? { contains: [{ field: pick(['s', 'tags']), text: pick(['a', 'e', 'ü', '🎙️']) }] } : {}),
            ...(next() < 0.2 ? { between: [{ field: 'at', gte: '2025-01-03T00:00:00.000Z', lte: '2025-01-07T00:00:00.000Z' }] } : {}),
          };
          const { matches, compare } = compileQuery(query);
          const expected = [...truth.values()].filter(matches).sort(compare).map((d) => d.id);
          assert.deepEqual(await readAllPages(store, collection, query, 1 + Math.floor(next() * 6)), expected, `step ${step}: ${JSON.stringify(query)}`);
        }
      });
    });

    describe('checkpoints', () => {
      it('loads null for a checkpoint never saved', async () => {
        assert.equal(await store.loadCheckpoint(uniqueName('never')), null);
      });

      it('saves and loads, the last save winning', async () => {
        const name = uniqueName('projection');
        await store.saveCheckpoint(name, 41n);
        await store.saveCheckpoint(name, 42n);
        assert.equal(await store.loadCheckpoint(name), 42n);
      });

      it('never moves backwards: an older save, even racing a newer one, changes nothing', async () => {
        const name = uniqueName('forward');
        await store.saveCheckpoint(name, 42n);
        await store.saveCheckpoint(name, 41n);
        assert.equal(await store.loadCheckpoint(name), 42n);
        await Promise.all([50n, 44n, 49n, 43n, 48n, 45n, 47n, 46n].map((position) => store.saveCheckpoint(name, position)));
        assert.equal(await store.loadCheckpoint(name), 50n);
        await store.saveCheckpoint(name, 50n);
        assert.equal(await store.loadCheckpoint(name), 50n);
      });

      it('round-trips positions beyond 2^53 exactly', async () => {
        const name = uniqueName('big');
        const position = 2n ** 63n + 12345n;
        await store.saveCheckpoint(name, position);
        assert.equal(await store.loadCheckpoint(name), position);
        await store.upsert(collection, { id: 'big' }, 2n ** 53n + 1n);
        assert.equal((await store.get(collection, 'big'))?.position, 2n ** 53n + 1n);
        assert.equal(await store.upsert(collection, { id: 'big', later: true }, 2n ** 53n + 2n), true);
      });
    });

    describe('dropAll', () => {
      it('clears every collection and every checkpoint', async () => {
        const other = uniqueName('other');
        const checkpoint = uniqueName('cp');
        await store.upsert(collection, { id: 'a' }, 1n);
        await store.upsert(other, { id: 'b' }, 2n);
        await store.saveCheckpoint(checkpoint, 2n);
        await store.dropAll();
        assert.equal(await store.get(collection, 'a'), null);
        assert.equal(await store.count(other), 0);
        assert.equal(await store.loadCheckpoint(checkpoint), null);
        assert.equal(await store.upsert(collection, { id: 'a' }, 1n), true, 'positions start over after a drop');
      });
    });
  });
}
