import { DomainError, invalidInput } from './errors';

/**
 * Limits on what may be stored or used as a path. Checked iteratively (no recursion), so even a
 * value nested 200,000 levels deep is refused with a clear error instead of overflowing the stack
 * later, when the store serialises it.
 */

/** Names that reach into an object's prototype chain: refused as keys at every depth and as path segments. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
export const MAX_JSON_DEPTH = 64;
export const MAX_RECORD_BYTES = 1024 * 1024;

export { isJsonObject } from '../util/json-object';

export function isReservedName(name: string): boolean {
  return RESERVED_NAMES.has(name);
}

/** A dotted path whose segments are non-empty, not reserved and not operators. */
export function checkFieldPath(path: string, what: string, code: string): string {
  const segments = path.split('.');
  const bad = segments.find((segment) => segment === '' || segment.startsWith('$') || isReservedName(segment));
  if (bad !== undefined) {
    throw invalidInput(
      `${what} "${path.slice(0, 100)}" is not allowed ("${bad.slice(0, 40)}" is empty, an operator or a reserved name)`,
      code,
    );
  }
  return path;
}

/**
 * Walks a JSON value breadth-first: depth limit and reserved keys. `where` names it in errors;
 * `code` replaces the error codes (filters answer `invalid_filter` for everything).
 */
export function checkJsonValue(value: unknown, where: string, maxDepth = MAX_JSON_DEPTH, code?: string): void {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth += 1) {
    if (depth > maxDepth) throw invalidInput(`${where} nests deeper than ${maxDepth} levels`, code ?? 'too_deep');
    const next: unknown[] = [];
    for (const item of level) {
      if (typeof item !== 'object' || item === null) continue;
      if (Array.isArray(item)) {
        for (const element of item) next.push(element);
        continue;
      }
      for (const key of Object.keys(item)) {
        if (isReservedName(key))
          throw invalidInput(`${where} has the reserved field name "${key}"`, code ?? 'invalid_field_name');
        next.push((item as Record<string, unknown>)[key]);
      }
    }
    level = next;
  }
}

/** The full check for data about to be stored: shape, then size (safe to serialise once the shape passed). */
export function checkStoredJson(value: unknown, where: string): void {
  checkJsonValue(value, where);
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (bytes > MAX_RECORD_BYTES) {
    throw new DomainError(
      'too_large',
      'record_too_large',
      `${where} is ${bytes} bytes as JSON; at most ${MAX_RECORD_BYTES} may be stored`,
      { extraData: { limit_bytes: MAX_RECORD_BYTES } },
    );
  }
}
