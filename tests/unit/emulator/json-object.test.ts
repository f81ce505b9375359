/**
 * One name, one meaning: lib/util's `isPlainObject` checks the prototype (data of unknown origin);
 * the emulator's check of parsed JSON is `isJsonObject` and accepts any non-array object.
 */
import * as body from '@/emulator/http/body';
import { isJsonObject } from '@/emulator/util/json-object';
import { isPlainObject } from '@/lib/util';

class Point {
  x = 1;
}

it('the emulator no longer exports a second, different isPlainObject', () => {
  expect(Object.keys(body)).not.toContain('isPlainObject');
});

it.each([
  ['{}', {}, true, true],
  ['a null-prototype object', Object.create(null) as object, true, true],
  ['a class instance', new Point(), true, false],
  ['a Date', new Date(0), true, false],
  ['an array', [], false, false],
  ['null', null, false, false],
  ['a string', 'x', false, false],
])('%s: isJsonObject %p, isPlainObject %p', (_label, value, json, plain) => {
  expect(isJsonObject(value)).toBe(json);
  expect(isPlainObject(value)).toBe(plain);
});
