/**
 * @jest-environment node
 *
 * `$regex` on RE2 (query/linear-regex.ts): MongoDB's options, the `x` option's rewrite, the length
 * limit, and patterns RE2 cannot run refused rather than run on a backtracking engine.
 */
import { compileLinearRegex, MAX_REGEX_LENGTH, withoutExtendedSyntax } from '@/emulator/query/linear-regex';

import { failureOf } from '../emulator-kit';

const test = (pattern: string, options: string, input: string) =>
  compileLinearRegex({ pattern, options }, 'name').exec(input) !== null;

describe('compileLinearRegex', () => {
  it.each<[string, string, string, boolean]>([
    ['^an', '', 'Anna', false],
    ['^an', 'i', 'Anna', true],
    ['^line$', '', 'first\nline', false],
    ['^line$', 'm', 'first\nline', true],
    ['a.b', '', 'a\nb', false],
    ['a.b', 's', 'a\nb', true],
    ['^ü', 'iu', 'Über', true],
    ['abc #category code\n123 #item number', 'x', 'abc123', true],
    ['abc #category code\n123 #item number', '', 'abc123', false],
    ['(a+)+$', '', `${'a'.repeat(10_000)}!`, false],
    ['', '', 'anything', true],
  ])('/%s/%s on %p: %p', (pattern, options, input, matches) => {
    expect(test(pattern, options, input)).toBe(matches);
  });

  it('hands mingo the input as the match (all its $regex predicate reads)', () => {
    expect(compileLinearRegex({ pattern: 'b', options: '' }, 'name').exec('abc')).toEqual(['abc']);
  });

  it(`accepts ${MAX_REGEX_LENGTH} characters`, () => {
    expect(test('a'.repeat(MAX_REGEX_LENGTH), '', 'a'.repeat(MAX_REGEX_LENGTH))).toBe(true);
  });

  it.each<[string, string, string]>([
    [
      'longer than the limit',
      'a'.repeat(MAX_REGEX_LENGTH + 1),
      `$regex on "name" is longer than ${MAX_REGEX_LENGTH} characters`,
    ],
    ['a backreference', '(a)\\1', '$regex on "name" is not a valid pattern for the linear-time engine'],
    ['a lookahead', 'a(?=b)', '$regex on "name" is not a valid pattern for the linear-time engine'],
    ['a lookbehind', '(?<=a)b', '$regex on "name" is not a valid pattern for the linear-time engine'],
    ['an unclosed group', '(a', '$regex on "name" is not a valid pattern for the linear-time engine'],
  ])('refuses %s (400 invalid_filter)', (_label, pattern, message) => {
    expect(failureOf(() => compileLinearRegex({ pattern, options: '' }, 'name'))).toEqual({
      kind: 'invalid',
      code: 'invalid_filter',
      message,
    });
  });

  it.each(['g', 'y', 'im g', 'l'])('refuses the option letters %p', (options) => {
    expect(failureOf(() => compileLinearRegex({ pattern: 'a', options }, 'name'))).toEqual({
      kind: 'invalid',
      code: 'invalid_filter',
      message: '$options on "name" may only hold the flags i, m, s, u, x',
    });
  });
});

describe('withoutExtendedSyntax (the x option)', () => {
  it.each<[string, string]>([
    ['a b\tc\nd', 'abcd'],
    ['abc #category code\n123 #item number', 'abc123'],
    ['abc # a comment to the end', 'abc'],
    ['a\\ b', 'a b'],
    ['a\\#b', 'a\\#b'],
    ['[ #]x', '[ #]x'],
    ['[a\\]# ]b', '[a\\]# ]b'],
    ['\\d+ \\s', '\\d+\\s'],
  ])('%p -> %p', (pattern, rewritten) => {
    expect(withoutExtendedSyntax(pattern)).toBe(rewritten);
  });
});
