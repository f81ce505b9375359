/**
 * @jest-environment node
 *
 * An entity's property schemas checked by ajv (model/schema-check.ts), in the platform's words:
 * the first problem's path (`tags[1]`, `meta.level`) and text, the type before every other rule,
 * a null the type admits skipping the rest, and `required` meaning present and not null.
 */
import { firstProblem } from '@/emulator/model/schema-check';

import { definitionOf } from '../emulator-kit';

const TASK = definitionOf({
  name: 'Task',
  properties: {
    title: { type: 'string', minLength: 2, maxLength: 5 },
    status: { type: 'string', enum: ['todo', 'done'] },
    level: { type: 'string', enum: ['a'] },
    rank: { type: 'integer', enum: [1, 2] },
    points: { type: 'integer', minimum: 0, maximum: 10 },
    ratio: { type: 'number' },
    done: { type: 'boolean' },
    note: { type: ['string', 'null'], minLength: 3 },
    code: { type: 'string', pattern: '^[A-Z]{2}\\d+$' },
    tags: { type: 'array', items: { type: 'string' } },
    steps: {
      type: 'array',
      items: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    },
    meta: {
      type: 'object',
      properties: { level: { type: 'integer' }, city: { type: 'string' } },
      required: ['city'],
    },
  },
  required: ['title'],
});

describe('firstProblem', () => {
  it.each<[string, Record<string, unknown>]>([
    ['no fields at all (top-level required is the caller’s)', {}],
    ['a null the type admits skips the rules', { note: null }],
    ['a field the schema does not name is not checked', { unknown: 5 }],
    [
      'a whole valid record',
      {
        title: 'Tee',
        status: 'done',
        level: 'a',
        rank: 2,
        points: 10,
        ratio: 0.5,
        done: false,
        note: 'abc',
        code: 'DE42',
        tags: ['x', 'y'],
        steps: [{ label: 'a' }, { label: 'b', extra: 1 }],
        meta: { level: 3, city: 'Köln' },
      },
    ],
  ])('none for %s', (_label, fields) => {
    expect(firstProblem(TASK, fields)).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a number for a string', { title: 5 }, 'title', 'Input should be a valid string'],
    ['null for a string', { title: null }, 'title', 'Input should be a valid string'],
    ['too short', { title: 'a' }, 'title', 'String should have at least 2 characters'],
    ['too long', { title: 'abcdef' }, 'title', 'String should have at most 5 characters'],
    ['outside the enum', { status: 'open' }, 'status', "Input should be 'todo' or 'done'"],
    ['outside a one-value enum', { level: 'b' }, 'level', "Input should be 'a'"],
    ['outside a number enum', { rank: 3 }, 'rank', 'Input should be 1 or 2'],
    ['the type before the enum', { status: 5 }, 'status', 'Input should be a valid string'],
    ['a fraction for an integer', { points: 1.5 }, 'points', 'Input should be a valid integer'],
    ['below the minimum', { points: -1 }, 'points', 'Input should be greater than or equal to 0'],
    ['above the maximum', { points: 11 }, 'points', 'Input should be less than or equal to 10'],
    ['a numeric string for a number', { ratio: '1' }, 'ratio', 'Input should be a valid number'],
    ['a string for a boolean', { done: 'true' }, 'done', 'Input should be a valid boolean'],
    ['a number for a nullable string', { note: 5 }, 'note', 'Input should be a valid string or null'],
    ['too short, nullable', { note: 'ab' }, 'note', 'String should have at least 3 characters'],
    ['against the pattern', { code: 'de42' }, 'code', "String should match pattern '^[A-Z]{2}\\d+$'"],
    ['an object for an array', { tags: { 0: 'x' } }, 'tags', 'Input should be a valid array'],
    ['an array item', { tags: ['x', 1] }, 'tags[1]', 'Input should be a valid string'],
    ['a missing field in an item', { steps: [{ label: 'a' }, {}] }, 'steps[1].label', 'Field required'],
    ['a null required field in an item', { steps: [{ label: null }] }, 'steps[0].label', 'Field required'],
    ['a nested field', { meta: { level: 'x', city: 'B' } }, 'meta.level', 'Input should be a valid integer'],
    ['a missing nested field', { meta: { level: 1 } }, 'meta.city', 'Field required'],
    ['an array for an object', { meta: [] }, 'meta', 'Input should be a valid object'],
    ['the first field in schema order', { done: 1, title: 5 }, 'title', 'Input should be a valid string'],
  ])('%s', (_label, fields, path, text) => {
    expect(firstProblem(TASK, fields)).toEqual({ path, text });
  });

  it('an inherited name is absent, not present: a required nested field named like one is missing', () => {
    const definition = definitionOf({
      name: 'Odd',
      properties: { meta: { type: 'object', properties: { toString: { type: 'string' } }, required: ['toString'] } },
    });
    expect(firstProblem(definition, { meta: {} })).toEqual({ path: 'meta.toString', text: 'Field required' });
  });

  it('a pattern runs on RE2: a value a backtracking engine would stall on is simply refused', () => {
    const definition = definitionOf({ name: 'Slow', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(firstProblem(definition, { s: `${'a'.repeat(5000)}!` })).toEqual({
      path: 's',
      text: "String should match pattern '^(a+)+$'",
    });
  });
});

describe('formats', () => {
  const FORMATS = ['date', 'date-time', 'time', 'email', 'uri', 'hostname', 'ipv4', 'ipv6', 'uuid'] as const;
  const definition = definitionOf({
    name: 'Formats',
    properties: Object.fromEntries(FORMATS.map((format) => [format, { type: 'string', format }])),
  });

  it.each<[(typeof FORMATS)[number], string, boolean]>([
    ['date', '2026-11-25', true],
    ['date', '2026-13-01', false],
    ['date', '25.11.2026', false],
    ['date-time', '2026-11-25T10:00:00Z', true],
    ['date-time', '2026-11-25T10:00:00+01:00', true],
    ['date-time', '2026-11-25T10:00', true],
    ['date-time', '2026-11-25T10:00:00.622000', true],
    ['date-time', '2026-11-25', false],
    ['time', '10:00:00', true],
    ['time', '10:00:00Z', true],
    ['time', '25:00:00', false],
    ['email', 'ana@example.com', true],
    ['email', 'ana@', false],
    ['uri', 'https://example.com/a?b=1', true],
    ['uri', 'mailto:ana@example.com', true],
    ['uri', '/relative/path', false],
    ['hostname', 'example.com', true],
    ['hostname', 'exa mple.com', false],
    ['ipv4', '192.168.0.1', true],
    ['ipv4', '256.0.0.1', false],
    ['ipv6', '::1', true],
    ['ipv6', '192.168.0.1', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123e4567e89b12d3a456426614174000', false],
  ])('%s %p: valid %p', (format, value, valid) => {
    expect(firstProblem(definition, { [format]: value })).toEqual(
      valid ? null : { path: format, text: `Input should be a valid ${format}` },
    );
  });
});
