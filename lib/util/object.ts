export type PlainObject = Record<string, unknown>;

/**
 * True for `{}`-style objects and `Object.create(null)`; false for arrays, class instances (Date,
 * Map, FormData...), functions and null. Data from outside (requests, messages, storage) must pass
 * this before its fields are read.
 */
export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}
