import { RE2JS, RE2JSException } from 're2js';

import { invalidInput } from '../core/errors';

/**
 * `$regex` runs on RE2 (the pure-JS port `re2js`): matching takes time linear in the input, so a
 * pattern like `(a+)+$` cannot stall the process the way a backtracking engine would. RE2 has no
 * backreferences or lookarounds; a pattern using them is refused with a 400 instead of falling back.
 */

export const MAX_REGEX_LENGTH = 256;

/**
 * MongoDB's `$options` letters that RE2 can honour; `u` is accepted as a no-op (RE2 is
 * Unicode-aware). `x` has no RE2 flag: the pattern is rewritten instead (withoutExtendedSyntax).
 */
const FLAG_BITS = new Map<string, number>([
  ['i', RE2JS.CASE_INSENSITIVE],
  ['m', RE2JS.MULTILINE],
  ['s', RE2JS.DOTALL],
  ['u', 0],
  ['x', 0],
]);
const WHITESPACE = /\s/;

/**
 * The `x` (extended) option as MongoDB documents it: whitespace in the pattern is ignored unless
 * escaped or inside a character class, and an unescaped `#` starts a comment up to the next newline.
 * Escapes are kept, so `\#` and `\ ` stay literal.
 */
export function withoutExtendedSyntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let at = 0; at < pattern.length; at += 1) {
    const character = pattern[at] as string;
    if (character === '\\') {
      const escaped = pattern[at + 1] ?? '';
      // RE2 refuses `\ `; an escaped whitespace character is simply that character.
      out += WHITESPACE.test(escaped) ? escaped : `\\${escaped}`;
      at += 1;
    } else if (inClass) {
      if (character === ']') inClass = false;
      out += character;
    } else if (character === '[') {
      inClass = true;
      out += character;
    } else if (character === '#') {
      const end = pattern.indexOf('\n', at);
      if (end === -1) break;
      at = end;
    } else if (!WHITESPACE.test(character)) {
      out += character;
    }
  }
  return out;
}

export interface LinearRegexSpec {
  pattern: string;
  options: string;
}

/** Something with `exec`, the only thing mingo's `$regex` predicate calls on its operand. */
export interface LinearMatcher {
  exec(input: string): string[] | null;
}

export function compileLinearRegex(spec: LinearRegexSpec, path: string): LinearMatcher {
  if (spec.pattern.length > MAX_REGEX_LENGTH) {
    throw invalidInput(`$regex on "${path}" is longer than ${MAX_REGEX_LENGTH} characters`, 'invalid_filter');
  }
  let flags = 0;
  for (const letter of spec.options) {
    const bit = FLAG_BITS.get(letter);
    if (bit === undefined)
      throw invalidInput(`$options on "${path}" may only hold the flags i, m, s, u, x`, 'invalid_filter');
    flags |= bit;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(spec.options.includes('x') ? withoutExtendedSyntax(spec.pattern) : spec.pattern, flags);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    throw invalidInput(
      `$regex on "${path}" is not a valid pattern for the linear-time engine`,
      'invalid_filter',
      error.message,
    );
  }
  return { exec: (input) => (compiled.test(input) ? [input] : null) };
}
