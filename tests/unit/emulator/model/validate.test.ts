/**
 * @jest-environment node
 *
 * Entity models (model/validate.ts): what each write path keeps, fills and refuses for a defined
 * entity, a schemaless one passing everything through, and an undefined one answering 404.
 */
import type { EntityRecord } from '@/emulator/core/types';
import { entityModel } from '@/emulator/model/validate';

import { definitionOf, failureOf } from '../emulator-kit';

const TASK = definitionOf({
  name: 'Task',
  properties: {
    title: { type: 'string' },
    points: { type: 'integer', default: 0 },
    labels: { type: 'array', items: { type: 'string' }, default: ['new'] },
    meta: { type: 'object', properties: { city: { type: 'string' } } },
    code: { type: ['string', 'number'] },
    done: { type: 'boolean' },
  },
  required: ['title'],
});
const model = entityModel({ kind: 'defined', definition: TASK }, 'Task');

const violation = (message: string) => ({ kind: 'schema_violation', code: 'validation_error', message });

const STORED: EntityRecord = {
  id: 'r1',
  created_date: '2026-11-25T10:00:00.000Z',
  updated_date: '2026-11-25T10:00:00.000Z',
  created_by: 'ana@example.com',
  title: 'Tee',
  points: 2,
  legacy: 'kept from before the schema changed',
};

describe('entityModel', () => {
  it('an entity the app does not define is a 404', () => {
    expect(failureOf(() => entityModel({ kind: 'missing' }, 'Note'))).toEqual({
      kind: 'not_found',
      code: 'entity_not_found',
      message: 'Entity "Note" not found',
    });
  });

  it('a schemaless entity passes every field through, as given', () => {
    const schemaless = entityModel({ kind: 'schemaless' }, 'Note');
    const fields = { anything: { $weird: [1] }, n: '5' };
    expect([schemaless.definition, schemaless.keepsField('whatever')]).toEqual([null, true]);
    expect(schemaless.forCreate(fields)).toBe(fields);
    expect(schemaless.forUpdate(fields)).toBe(fields);
    expect(schemaless.fromCsv(fields)).toBe(fields);
    expect(schemaless.afterOperators(STORED, fields)).toBe(fields);
    expect(() => schemaless.requireKnownPaths(['nope.x'], 'The key')).not.toThrow();
  });
});

describe('a defined entity', () => {
  it.each<[string, boolean]>([
    ['title', true],
    ['created_by', true],
    ['id', true],
    ['legacy', false],
    ['toString', false],
  ])('keepsField(%p) is %p', (name, kept) => {
    expect(model.keepsField(name)).toBe(kept);
  });

  describe('forCreate', () => {
    it('drops unknown fields, fills defaults, keeps the order given after the defaults', () => {
      const record = model.forCreate({ title: 'Tee', extra: 1, done: true });
      expect(record).toEqual({ points: 0, labels: ['new'], title: 'Tee', done: true });
      expect(Object.keys(record)).toEqual(['points', 'labels', 'title', 'done']);
    });

    it('a default is a copy: changing one record does not change the next', () => {
      const first = model.forCreate({ title: 'a' }) as { labels: string[] };
      first.labels.push('changed');
      expect(model.forCreate({ title: 'b' }).labels).toEqual(['new']);
    });

    it('a value given replaces the default', () => {
      expect(model.forCreate({ title: 'a', points: 7 }).points).toBe(7);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a missing required field', { points: 1 }, 'Error in field title: Field required'],
      ['a null required field', { title: null }, 'Error in field title: Field required'],
      ['a wrong type', { title: 'a', points: '1' }, 'Error in field points: Input should be a valid integer'],
      [
        'a wrong nested type',
        { title: 'a', meta: { city: 1 } },
        'Error in field meta.city: Input should be a valid string',
      ],
      ['a wrong item', { title: 'a', labels: ['x', 2] }, 'Error in field labels[1]: Input should be a valid string'],
    ])('refuses %s (422)', (_label, fields, message) => {
      expect(failureOf(() => model.forCreate(fields))).toEqual(violation(message));
    });
  });

  describe('forUpdate', () => {
    it('drops unknown fields and checks only those given (no required field asked for)', () => {
      expect(model.forUpdate({ done: true, extra: 1 })).toEqual({ done: true });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a wrong type', { done: 'yes' }, 'Error in field done: Input should be a valid boolean'],
      ['null for a required string', { title: null }, 'Error in field title: Input should be a valid string'],
    ])('refuses %s', (_label, fields, message) => {
      expect(failureOf(() => model.forUpdate(fields))).toEqual(violation(message));
    });
  });

  describe('afterOperators', () => {
    it('drops a field the operators added outside the schema, keeps one stored before', () => {
      expect(model.afterOperators(STORED, { ...STORED, points: 3, added: 1 })).toEqual({ ...STORED, points: 3 });
    });

    it('checks only what changed', () => {
      const stored = { ...STORED, done: 'stored before the schema said boolean' };
      expect(model.afterOperators(stored, { ...stored, points: 4 })).toEqual({ ...stored, points: 4 });
    });

    it.each<[string, Record<string, unknown>, string]>([
      [
        'a required field removed',
        (({ title: _title, ...rest }) => rest)(STORED),
        'Error in field title: Field required',
      ],
      ['a required field set to null', { ...STORED, title: null }, 'Error in field title: Field required'],
      [
        'a changed field of the wrong type',
        { ...STORED, points: 1.5 },
        'Error in field points: Input should be a valid integer',
      ],
    ])('refuses %s', (_label, after, message) => {
      expect(failureOf(() => model.afterOperators(STORED, after))).toEqual(violation(message));
    });
  });

  describe('requireKnownPaths', () => {
    it('takes paths that start at a schema or built-in field', () => {
      expect(() =>
        model.requireKnownPaths(['title', 'meta.city', 'id', 'meta.unknown.deeper'], 'The upsert key'),
      ).not.toThrow();
    });

    it.each(['legacy', 'nope.x', 'toString'])('refuses %p (400 invalid_key)', (path) => {
      expect(failureOf(() => model.requireKnownPaths(['title', path], 'The upsert key'))).toEqual({
        kind: 'invalid',
        code: 'invalid_key',
        message: `The upsert key "${path}" is not a field of Task`,
      });
    });
  });

  describe('fromCsv', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['a number for a string field becomes text', { title: 12 }, { title: '12' }],
      ['a boolean for a string field becomes text', { title: true }, { title: 'true' }],
      ['a number where a number is allowed too stays', { code: 12 }, { code: 12 }],
      ['JSON text for an array', { labels: '["a","b"]' }, { labels: ['a', 'b'] }],
      ['JSON text for an object', { meta: '{"city":"Bonn"}' }, { meta: { city: 'Bonn' } }],
      ['text that is no JSON stays for the type check to name', { labels: '[a' }, { labels: '[a' }],
      ['a number for an integer stays', { points: 3 }, { points: 3 }],
      ['an unknown field is left alone', { other: 5 }, { other: 5 }],
    ])('%s', (_label, fields, typed) => {
      expect(model.fromCsv(fields)).toEqual(typed);
    });
  });
});
