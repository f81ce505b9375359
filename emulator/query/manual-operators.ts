import type { Options } from 'mingo/types';
import { ensureArray, isNil, resolve } from 'mingo/util';

import { isJsonObject } from '../util/json-object';

/**
 * Query operators where mingo departs from the MongoDB manual, written to the manual's rules and
 * registered in the engine's context under the standard names:
 *
 * - Equality with an embedded document (`$eq`, `$ne`, `$in`, `$nin`, `$all`) needs the exact
 *   document, field order included, also for documents inside arrays ("Query on Embedded/Nested
 *   Documents": `{ size: { w: 21, h: 14, uom: "cm" } }` matches nothing when the stored order is
 *   h, w, uom). mingo's equality ignores field order. Operands without any document keep mingo's
 *   own operator, so the common case runs exactly the engine's code.
 * - `$mod` truncates a decimal divisor, remainder and field value towards zero ("$mod: Floating
 *   Point Arguments"), and never matches a non-number; mingo uses the decimals as they are and lets
 *   JavaScript coerce strings.
 * - `$in` / `$nin` with only scalar members look values up in a Set instead of intersecting lists,
 *   so a long list costs one lookup per value (same answer as the engine's hash intersection).
 */

type AnyRecord = Record<string, unknown>;
export type RecordPredicate = (record: AnyRecord) => boolean;
type OperatorFactory = (selector: string, value: unknown, options: Options) => RecordPredicate;

/** True when a document appears anywhere in `value`, i.e. where field order can matter. */
function holdsDocument(value: unknown): boolean {
  if (isJsonObject(value)) return true;
  return Array.isArray(value) && value.some(holdsDocument);
}

const isScalar = (value: unknown) =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** BSON equality: same type, same value; documents field by field in the same order. */
export function exactlyEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return (
      Array.isArray(right) && left.length === right.length && left.every((item, at) => exactlyEqual(item, right[at]))
    );
  }
  if (isJsonObject(left) && isJsonObject(right)) {
    const leftKeys = Object.keys(left);
    const rightKeys = Object.keys(right);
    return (
      leftKeys.length === rightKeys.length &&
      leftKeys.every((key, at) => key === rightKeys[at] && exactlyEqual(left[key], right[key]))
    );
  }
  return false;
}

function depthOf(selector: string): number {
  let depth = 0;
  for (const character of selector) if (character === '.') depth += 1;
  return depth;
}

function flattenTo(values: readonly unknown[], depth: number): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    if (Array.isArray(value) && depth > 0) out.push(...flattenTo(value, depth - 1));
    else out.push(value);
  }
  return out;
}

/** The field's value(s) as mingo's own operators resolve them (through arrays). */
const fieldOf = (record: AnyRecord, selector: string): unknown => resolve(record, selector, { unwrapArray: true });

/** Equality as the manual defines it: the value itself, or any element of an array value. */
function matchesExactly(value: unknown, operand: unknown, depth: number): boolean {
  if (exactlyEqual(value, operand)) return true;
  if (!Array.isArray(value)) return false;
  return (
    value.some((item) => exactlyEqual(item, operand)) ||
    flattenTo(value, depth).some((item) => exactlyEqual(item, operand))
  );
}

function inList(value: unknown, list: readonly unknown[]): boolean {
  if (isNil(value)) return list.some((member) => member === null);
  const values = ensureArray(value);
  return values.some((item) => list.some((member) => exactlyEqual(item, member)));
}

function inScalarSet(value: unknown, members: ReadonlySet<unknown>, hasNull: boolean): boolean {
  if (isNil(value)) return hasNull;
  for (const item of ensureArray(value)) if (members.has(item)) return true;
  return false;
}

/** The manual's operators, falling back to the engine's own where they agree. */
export function manualOperators(engine: Readonly<Record<string, OperatorFactory>>): Record<string, OperatorFactory> {
  const native = (name: string): OperatorFactory => {
    const operator = engine[name];
    if (!operator) throw new Error(`mingo lacks the query operator ${name}`);
    return operator;
  };
  const $eq = native('$eq');
  const $ne = native('$ne');
  const $all = native('$all');

  const membership =
    (negate: boolean): OperatorFactory =>
    (selector, value) => {
      const list = value as unknown[];
      let test: (field: unknown) => boolean;
      if (list.every(isScalar)) {
        const members = new Set(list.filter((member) => member !== null));
        const hasNull = list.includes(null);
        test = (field) => inScalarSet(field, members, hasNull);
      } else {
        test = (field) => inList(field, list);
      }
      return (record) => test(fieldOf(record, selector)) !== negate;
    };

  return {
    $eq: (selector, value, options) => {
      if (!holdsDocument(value)) return $eq(selector, value, options);
      const depth = depthOf(selector);
      return (record) => matchesExactly(fieldOf(record, selector), value, depth);
    },
    $ne: (selector, value, options) => {
      if (!holdsDocument(value)) return $ne(selector, value, options);
      const depth = depthOf(selector);
      return (record) => !matchesExactly(fieldOf(record, selector), value, depth);
    },
    $in: membership(false),
    $nin: membership(true),
    $all: (selector, value, options) => {
      const items = value as unknown[];
      if (!items.some((item) => holdsDocument(item) && !(isJsonObject(item) && '$elemMatch' in item))) {
        return $all(selector, value, options);
      }
      // Documents compare exactly; `{ $elemMatch }` items keep the engine's meaning.
      const elementMatchers = items.map((item) =>
        isJsonObject(item) && '$elemMatch' in item ? $all(selector, [item], options) : null,
      );
      return (record) => {
        const field = fieldOf(record, selector);
        if (!Array.isArray(field) || field.length === 0) return false;
        return items.every((item, at) => {
          const matcher = elementMatchers[at];
          return matcher ? matcher(record) : field.some((element) => exactlyEqual(element, item));
        });
      };
    },
    $mod: (selector, value) => {
      const [divisor, remainder] = value as [number, number];
      return (record) =>
        ensureArray(fieldOf(record, selector)).some(
          (item) => typeof item === 'number' && Number.isFinite(item) && Math.trunc(item) % divisor === remainder,
        );
    },
  };
}
