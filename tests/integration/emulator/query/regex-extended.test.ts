import { compileLinearRegex, withoutExtendedSyntax } from '@/emulator/query/linear-regex';

/** `$options: "x"`: what is ignored and what stays literal, as MongoDB's $regex page describes. */

it.each([
  ['abc #category code\n123 #item number', 'abc123'],
  ['a b\tc', 'abc'],
  ['[ #]x', '[ #]x'],
  ['a\\ b', 'a b'],
  ['a\\#b # comment', 'a\\#b'],
  ['a # no newline after the comment', 'a'],
])('%j becomes %j', (pattern, expected) => {
  expect(withoutExtendedSyntax(pattern)).toBe(expected);
});

it('matches with the rewritten pattern and keeps other flags', () => {
  const matcher = compileLinearRegex({ pattern: '^A B C # letters', options: 'ix' }, 'name');
  expect(matcher.exec('abc')).not.toBeNull();
  expect(matcher.exec('a b c')).toBeNull();
});

it('still refuses unknown flags, naming the ones it takes', () => {
  expect(() => compileLinearRegex({ pattern: 'a', options: 'g' }, 'name')).toThrow('i, m, s, u, x');
});
