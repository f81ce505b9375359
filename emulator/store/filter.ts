import { badRequest } from '../http/errors';

/**
 * The JSON `q` filter: Mongo-like equality, `$eq $ne $in $nin $gt $gte $lt $lte $regex $exists`,
 * `$and $or $nor`, and dotted paths into nested objects. A filter is compiled once, so every
 * mistake (unknown operator, bad regex, wrong operand type) is a 400 before any record is touched.
 */

export type RecordPredicate = (record: Record<string, unknown>) => boolean;

const MAX_DEPTH = 16;
const MAX_REGEX_LENGTH = 256;
const ALLOWED_REGEX_FLAGS = /^[imsu]*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readPath(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = Object.prototype.hasOwnProperty.call(current, key) ? current[key] : undefined;
  }
  return current;
}

export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && deepEqual(left[key], right[key]));
  }
  return false;
}

/** Mongo semantics: a scalar condition on an array field matches when any element matches. */
function matchesValue(actual: unknown, expected: unknown): boolean {
  if (deepEqual(actual, expected)) return true;
  return Array.isArray(actual) && !Array.isArray(expected) && actual.some((item) => deepEqual(item, expected));
}

/** Ordering comparisons only between numbers or between strings (ISO dates compare as strings). */
function compareOrdered(actual: unknown, expected: unknown): number | null {
  if (typeof actual === 'number' && typeof expected === 'number') return actual - expected;
  if (typeof actual === 'string' && typeof expected === 'string') return actual < expected ? -1 : actual > expected ? 1 : 0;
  return null;
}

function requireArray(operator: string, operand: unknown, path: string): unknown[] {
  if (!Array.isArray(operand)) throw badRequest(`${operator} on "${path}" needs an array`, 'invalid_filter');
  return operand;
}

function compileRegex(operand: unknown, options: unknown, path: string): RegExp {
  if (typeof operand !== 'string') throw badRequest(`$regex on "${path}" needs a string`, 'invalid_filter');
  if (operand.length > MAX_REGEX_LENGTH) {
    throw badRequest(`$regex on "${path}" is longer than ${MAX_REGEX_LENGTH} characters`, 'invalid_filter');
  }
  const flags = options === undefined ? '' : options;
  if (typeof flags !== 'string' || !ALLOWED_REGEX_FLAGS.test(flags)) {
    throw badRequest(`$options on "${path}" may only hold the flags i, m, s, u`, 'invalid_filter');
  }
  try {
    return new RegExp(operand, flags);
  } catch (error) {
    throw badRequest(`$regex on "${path}" is not a valid pattern`, 'invalid_filter', (error as Error).message);
  }
}

type ValueTest = (actual: unknown) => boolean;

function compileOperator(operator: string, operand: unknown, path: string, allOperators: Record<string, unknown>): ValueTest {
  switch (operator) {
    case '$eq':
      return (actual) => matchesValue(actual, operand);
    case '$ne':
      return (actual) => !matchesValue(actual, operand);
    case '$in': {
      const options = requireArray('$in', operand, path);
      return (actual) => options.some((option) => matchesValue(actual, option));
    }
    case '$nin': {
      const options = requireArray('$nin', operand, path);
      return (actual) => !options.some((option) => matchesValue(actual, option));
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (typeof operand !== 'number' && typeof operand !== 'string') {
        throw badRequest(`${operator} on "${path}" needs a number or a string`, 'invalid_filter');
      }
      const accept = {
        $gt: (diff: number) => diff > 0,
        $gte: (diff: number) => diff >= 0,
        $lt: (diff: number) => diff < 0,
        $lte: (diff: number) => diff <= 0,
      }[operator];
      return (actual) => {
        const diff = compareOrdered(actual, operand);
        return diff !== null && accept(diff);
      };
    }
    case '$regex': {
      const pattern = compileRegex(operand, allOperators.$options, path);
      return (actual) => typeof actual === 'string' && pattern.test(actual);
    }
    case '$options':
      if (!('$regex' in allOperators)) throw badRequest(`$options on "${path}" needs $regex`, 'invalid_filter');
      return () => true;
    case '$exists':
      if (typeof operand !== 'boolean') throw badRequest(`$exists on "${path}" needs true or false`, 'invalid_filter');
      return (actual) => (actual !== undefined) === operand;
    default:
      throw badRequest(`Unsupported filter operator ${operator} on "${path}"`, 'invalid_filter');
  }
}

function compileCondition(path: string, condition: unknown): RecordPredicate {
  if (isPlainObject(condition)) {
    const keys = Object.keys(condition);
    const operatorKeys = keys.filter((key) => key.startsWith('$'));
    if (operatorKeys.length > 0) {
      if (operatorKeys.length !== keys.length) {
        throw badRequest(`The condition on "${path}" mixes operators and plain fields`, 'invalid_filter');
      }
      const tests = keys.map((key) => compileOperator(key, condition[key], path, condition));
      return (record) => {
        const actual = readPath(record, path);
        return tests.every((test) => test(actual));
      };
    }
  }
  return (record) => matchesValue(readPath(record, path), condition);
}

function compileObject(filter: unknown, depth: number): RecordPredicate {
  if (!isPlainObject(filter)) throw badRequest('A filter must be a JSON object', 'invalid_filter');
  if (depth > MAX_DEPTH) throw badRequest(`Filters may nest at most ${MAX_DEPTH} levels`, 'invalid_filter');
  const parts: RecordPredicate[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      const branches = requireArray(key, condition, key).map((branch) => compileObject(branch, depth + 1));
      if (branches.length === 0) throw badRequest(`${key} needs at least one condition`, 'invalid_filter');
      if (key === '$and') parts.push((record) => branches.every((branch) => branch(record)));
      else if (key === '$or') parts.push((record) => branches.some((branch) => branch(record)));
      else parts.push((record) => !branches.some((branch) => branch(record)));
    } else if (key.startsWith('$')) {
      throw badRequest(`Unsupported top-level filter operator ${key}`, 'invalid_filter');
    } else if (key.length === 0 || key.split('.').some((part) => part.length === 0)) {
      throw badRequest(`"${key}" is not a valid field path`, 'invalid_filter');
    } else {
      parts.push(compileCondition(key, condition));
    }
  }
  return (record) => parts.every((part) => part(record));
}

export function compileFilter(filter: unknown): RecordPredicate {
  return compileObject(filter, 0);
}
