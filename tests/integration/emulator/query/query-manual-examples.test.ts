import { find } from 'mingo';

import { serviceTokenFor } from '@/tests/support/emulator';

import { entityPath, query, suiteEmulator, type Json } from '../api';

/**
 * The examples printed in the MongoDB manual where the query engine (mingo) answers differently
 * from the manual: each row sends the manual's documents and query through the HTTP API and expects
 * the manual's answer, and also runs mingo directly to show that the row is still needed (a row
 * mingo now answers like the manual fails, so the table never keeps a stale difference).
 * Documents carry `key` where the manual has `_id` (the platform owns `id`).
 */

const APP = 'coming-soon';
const token = serviceTokenFor(APP);
const suite = suiteEmulator();

const INVENTORY: Json[] = [
  { key: 'journal', qty: 25, size: { h: 14, w: 21, uom: 'cm' }, status: 'A' },
  { key: 'notebook', qty: 50, size: { h: 8.5, w: 11, uom: 'in' }, status: 'A' },
  { key: 'paper', qty: 100, size: { h: 8.5, w: 11, uom: 'in' }, status: 'D' },
  { key: 'planner', qty: 75, size: { h: 22.85, w: 30, uom: 'cm' }, status: 'D' },
  { key: 'postcard', qty: 45, size: { h: 10, w: 15.25, uom: 'cm' }, status: 'A' },
];
const INSTOCK: Json[] = [
  {
    key: 'journal',
    instock: [
      { warehouse: 'A', qty: 5 },
      { warehouse: 'C', qty: 15 },
    ],
  },
  { key: 'notebook', instock: [{ warehouse: 'C', qty: 5 }] },
  {
    key: 'paper',
    instock: [
      { warehouse: 'A', qty: 60 },
      { warehouse: 'B', qty: 15 },
    ],
  },
  {
    key: 'planner',
    instock: [
      { warehouse: 'A', qty: 40 },
      { warehouse: 'B', qty: 5 },
    ],
  },
  {
    key: 'postcard',
    instock: [
      { warehouse: 'B', qty: 15 },
      { warehouse: 'C', qty: 35 },
    ],
  },
];
const MOD_INVENTORY: Json[] = [
  { key: 1, item: 'abc123', qty: 0 },
  { key: 2, item: 'xyz123', qty: 5 },
  { key: 3, item: 'ijk123', qty: 12 },
];
const PRODUCTS: Json[] = [
  { key: 100, sku: 'abc123', description: 'Single line description.' },
  { key: 101, sku: 'abc789', description: 'First line\nSecond line' },
  { key: 102, sku: 'xyz456', description: 'Many spaces before     line' },
  { key: 103, sku: 'xyz789', description: 'Multiple\nline description' },
  { key: 104, sku: 'Abc789', description: 'SKU starts with A' },
];
const SHOES: Json[] = [
  { key: 'A', sizes: [7, 11] },
  { key: 'B', sizes: [8, 9, 10] },
];
const EXTENDED_PATTERN = 'abc #category code\n123 #item number';

interface ManualExample {
  /** The manual's page and what it shows. */
  behaviour: string;
  documents: Json[];
  params: { q?: Json; sort?: string; fields?: string };
  /** The manual's answer: keys in order, or whole projected documents. */
  expected: unknown[] | ((records: Json[]) => unknown);
  /** mingo run directly on the same documents. */
  viaMingo: (documents: Json[]) => unknown;
}

const keysOf = (records: readonly Json[]) => records.map((record) => record.key);
const mingoKeys = (documents: Json[], filter: Json, sort: Record<string, 1 | -1> = { key: 1 }) =>
  keysOf(find(documents, filter).sort(sort).all() as Json[]);

const EXAMPLES: ManualExample[] = [
  {
    behaviour: 'Sort order, arrays: a descending sort compares the largest elements',
    documents: SHOES,
    params: { sort: '-sizes' },
    expected: ['A', 'B'],
    viaMingo: (documents) => keysOf(find(documents, {}).sort({ sizes: -1 }).all() as Json[]),
  },
  {
    behaviour: 'Embedded documents: equality needs the exact document, field order included',
    documents: INVENTORY,
    params: { q: { size: { w: 21, h: 14, uom: 'cm' } }, sort: 'key' },
    expected: [],
    viaMingo: (documents) => mingoKeys(documents, { size: { w: 21, h: 14, uom: 'cm' } }),
  },
  {
    behaviour: 'Arrays of embedded documents: an element must equal the document exactly, order included',
    documents: INSTOCK,
    params: { q: { instock: { qty: 5, warehouse: 'A' } }, sort: 'key' },
    expected: [],
    viaMingo: (documents) => mingoKeys(documents, { instock: { qty: 5, warehouse: 'A' } }),
  },
  {
    behaviour: '$mod: a decimal divisor is truncated ([4.5, 0] means [4, 0])',
    documents: MOD_INVENTORY,
    params: { q: { qty: { $mod: [4.5, 0] } }, sort: 'key' },
    expected: [1, 3],
    viaMingo: (documents) => mingoKeys(documents, { qty: { $mod: [4.5, 0] } }),
  },
  {
    behaviour: '$mod: a decimal remainder is truncated too ([4.99, 0.99] means [4, 0])',
    documents: MOD_INVENTORY,
    params: { q: { qty: { $mod: [4.99, 0.99] } }, sort: 'key' },
    expected: [1, 3],
    viaMingo: (documents) => mingoKeys(documents, { qty: { $mod: [4.99, 0.99] } }),
  },
  {
    behaviour: '$regex option x: whitespace and # comments in the pattern are ignored',
    documents: PRODUCTS,
    params: { q: { sku: { $regex: EXTENDED_PATTERN, $options: 'x' } }, sort: 'key' },
    expected: [100],
    // JavaScript has no `x` flag: the engine can only take the pattern literally.
    viaMingo: (documents) => mingoKeys(documents, { sku: { $regex: new RegExp(EXTENDED_PATTERN) } }),
  },
  {
    behaviour: 'Projection: "instock.0" does not project the first array element',
    documents: INSTOCK.slice(0, 2),
    params: { fields: 'key,instock.0', sort: 'key' },
    // Documents in the array are projected on their (absent) field "0".
    expected: (records) => records.map(({ key, instock }) => ({ key, instock })),
    viaMingo: (documents) =>
      (find(documents, {}, { key: 1, 'instock.0': 1 }).sort({ key: 1 }).all() as Json[]).map(({ key, instock }) => ({
        key,
        instock,
      })),
  },
];

const MANUAL_PROJECTION = [
  { key: 'journal', instock: [{}, {}] },
  { key: 'notebook', instock: [{}] },
];

describe.each(EXAMPLES.map((example, index) => [example.behaviour, example, index] as const))(
  '%s',
  (_behaviour, example, index) => {
    const entity = `ManualExample${index}`;
    const answer = async () => {
      const { api } = suite;
      const created = await api('POST', entityPath(APP, entity, '/bulk'), { json: example.documents, token });
      expect(created.status).toBe(201);
      const { status, body } = await api<Json[]>(
        'GET',
        entityPath(APP, entity) + query({ limit: 100, ...example.params }),
        {
          token,
        },
      );
      expect(status).toBe(200);
      return body;
    };

    it('answers as the manual prints', async () => {
      const records = await answer();
      if (typeof example.expected === 'function') {
        expect(example.expected(records)).toEqual(MANUAL_PROJECTION);
      } else {
        expect(keysOf(records)).toEqual(example.expected);
      }
    });

    it('is a place where the engine alone answers differently', () => {
      const manual = typeof example.expected === 'function' ? MANUAL_PROJECTION : example.expected;
      expect(example.viaMingo(example.documents)).not.toEqual(manual);
    });
  },
);

describe('controls: where mingo and the manual agree, the same answer', () => {
  it.each([
    ['the exact embedded document', INVENTORY, { size: { h: 14, w: 21, uom: 'cm' } }, ['journal']],
    ['the exact element document', INSTOCK, { instock: { warehouse: 'A', qty: 5 } }, ['journal']],
    ['an integer $mod', MOD_INVENTORY, { qty: { $mod: [4, 0] } }, [1, 3]],
  ] as const)('%s', async (name, documents, filter, expected) => {
    const entity = `ManualControl${name.replace(/\W/g, '')}`;
    const { api } = suite;
    expect((await api('POST', entityPath(APP, entity, '/bulk'), { json: documents, token })).status).toBe(201);
    const { body } = await api<Json[]>('GET', entityPath(APP, entity) + query({ q: filter, sort: 'key' }), { token });
    expect(keysOf(body)).toEqual(expected);
    expect(mingoKeys(documents as unknown as Json[], filter as Json)).toEqual(expected);
  });
});
