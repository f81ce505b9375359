import { invalidInput } from '../core/errors';
import { checkFieldPath, checkJsonValue, isJsonObject } from '../core/json-guard';
import { compileLinearRegex, MAX_REGEX_LENGTH } from './linear-regex';

/**
 * Validates a JSON filter against the operators the platform documents and rewrites it for the
 * engine (mingo). Everything is checked before a record is touched: an unknown or unsafe operator
 * (`$where`, `$function`, `$expr`, `$text`, ...) is a 400 that names it. `$regex` is rewritten to
 * `$linearRegex`, the engine's only way to match patterns, so no backtracking regex ever runs.
 */

export type Criteria = Record<string, unknown>;

export const LINEAR_REGEX_OPERATOR = '$linearRegex';
const MAX_FILTER_DEPTH = 16;
const LOGICAL = new Set(['$and', '$or', '$nor']);
const VALUE_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);
const LIST_OPERATORS = new Set(['$in', '$nin']);
const TYPE_ALIASES = new Set([
  'double',
  'string',
  'object',
  'array',
  'binData',
  'undefined',
  'objectId',
  'bool',
  'date',
  'null',
  'regex',
  'int',
  'long',
  'decimal',
  'number',
  'timestamp',
  'minKey',
  'maxKey',
]);

const invalid = (message: string) => invalidInput(message, 'invalid_filter');

/**
 * Size limits of one filter, so its cost per record is bounded before any record is read (issue:
 * a `$in` of 16,000 strings or an `$or` of 2,000 branches held the process for seconds). The time
 * budget per request (budget.ts) bounds the rest.
 */
export const FILTER_LIMITS = { listItems: 1000, branches: 100, nodes: 2000 } as const;

/**
 * Counts a filter's conditions and values (its keys and array items) iteratively, so a deep filter
 * cannot overflow the stack; `onKey` sees each key with its value as it is counted. Stops once the
 * count is past `max`.
 */
function countNodes(filter: unknown, max: number, onKey: (key: string, child: unknown) => void): number {
  const pending: unknown[] = [filter];
  let nodes = 0;
  while (pending.length > 0 && nodes <= max) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      nodes += value.length;
      pending.push(...value);
    } else if (isJsonObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        nodes += 1;
        onKey(key, child);
        pending.push(child);
      }
    }
  }
  return nodes;
}

function checkListSize(key: string, child: unknown): void {
  if (!Array.isArray(child)) return;
  if ((LIST_OPERATORS.has(key) || key === '$all') && child.length > FILTER_LIMITS.listItems) {
    throw invalid(`${key} may list at most ${FILTER_LIMITS.listItems} values (received ${child.length})`);
  }
  if (LOGICAL.has(key) && child.length > FILTER_LIMITS.branches) {
    throw invalid(`${key} may hold at most ${FILTER_LIMITS.branches} conditions (received ${child.length})`);
  }
}

function checkFilterSize(filter: unknown): void {
  if (countNodes(filter, FILTER_LIMITS.nodes, checkListSize) > FILTER_LIMITS.nodes) {
    throw invalid(`A filter may hold at most ${FILTER_LIMITS.nodes} conditions and values in all`);
  }
}

/**
 * The conditions and values of a filter, counted as its size limit counts them: what its compiled
 * form costs to keep grows with this (live queries count it, live-query-budget.ts).
 */
export function filterNodes(filter: unknown): number {
  return countNodes(filter, Number.POSITIVE_INFINITY, () => undefined);
}

function requireArray(operator: string, operand: unknown, path: string): unknown[] {
  if (!Array.isArray(operand)) throw invalid(`${operator} on "${path}" needs an array`);
  return operand;
}

function checkType(operand: unknown, path: string): unknown {
  const valid = (alias: unknown) =>
    (typeof alias === 'string' && TYPE_ALIASES.has(alias)) || (typeof alias === 'number' && Number.isInteger(alias));
  const all = Array.isArray(operand) ? operand : [operand];
  if (all.length === 0 || !all.every(valid))
    throw invalid(`$type on "${path}" needs a BSON type name or number (or a list of them)`);
  return operand;
}

/**
 * `[divisor, remainder]`, truncated towards zero as MongoDB does ("$mod: Floating Point
 * Arguments": `[4.5, 0]` means `[4, 0]`); a divisor that truncates to 0 is refused, as there.
 */
function checkMod(operand: unknown, path: string): [number, number] {
  const [divisor, remainder] = requireArray('$mod', operand, path);
  const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (!(Array.isArray(operand) && operand.length === 2) || !finite(divisor) || !finite(remainder)) {
    throw invalid(`$mod on "${path}" needs [divisor, remainder], two finite numbers`);
  }
  const whole: [number, number] = [Math.trunc(divisor), Math.trunc(remainder)];
  if (whole[0] === 0) throw invalid(`$mod on "${path}" needs a divisor that is not 0 once truncated to an integer`);
  return whole;
}

function rewriteRegex(condition: Record<string, unknown>, path: string): Record<string, unknown> {
  const pattern = condition.$regex;
  const options = condition.$options ?? '';
  if (typeof pattern !== 'string')
    throw invalid(`$regex on "${path}" needs a string (at most ${MAX_REGEX_LENGTH} characters)`);
  if (typeof options !== 'string') throw invalid(`$options on "${path}" must be a string`);
  compileLinearRegex({ pattern, options }, path);
  return { pattern, options };
}

/** A field's operator object (`{ $gt: 1, $lt: 5 }`), rewritten. */
function rewriteOperators(condition: Record<string, unknown>, path: string, depth: number): Criteria {
  if (depth > MAX_FILTER_DEPTH) throw invalid(`Filters may nest at most ${MAX_FILTER_DEPTH} levels`);
  const out: Criteria = {};
  if ('$options' in condition && !('$regex' in condition)) throw invalid(`$options on "${path}" needs $regex`);
  for (const [operator, operand] of Object.entries(condition)) {
    if (VALUE_OPERATORS.has(operator)) {
      checkJsonValue(operand, `The ${operator} value on "${path}"`, MAX_FILTER_DEPTH, 'invalid_filter');
      out[operator] = operand;
    } else if (LIST_OPERATORS.has(operator) || operator === '$all') {
      const list = requireArray(operator, operand, path);
      checkJsonValue(list, `The ${operator} list on "${path}"`, MAX_FILTER_DEPTH, 'invalid_filter');
      out[operator] = operator === '$all' ? list.map((item) => rewriteAllItem(item, path, depth)) : list;
    } else if (operator === '$exists') {
      if (typeof operand !== 'boolean') throw invalid(`$exists on "${path}" needs true or false`);
      out[operator] = operand;
    } else if (operator === '$size') {
      if (typeof operand !== 'number' || !Number.isInteger(operand) || operand < 0)
        throw invalid(`$size on "${path}" needs a non-negative integer`);
      out[operator] = operand;
    } else if (operator === '$type') {
      out[operator] = checkType(operand, path);
    } else if (operator === '$mod') {
      out[operator] = checkMod(operand, path);
    } else if (operator === '$not') {
      if (
        !isJsonObject(operand) ||
        !Object.keys(operand).every((key) => key.startsWith('$')) ||
        Object.keys(operand).length === 0
      ) {
        throw invalid(`$not on "${path}" needs an operator object such as { "$regex": "..." }`);
      }
      out[operator] = rewriteOperators(operand, path, depth + 1);
    } else if (operator === '$elemMatch') {
      out[operator] = rewriteElemMatch(operand, path, depth + 1);
    } else if (operator === '$regex') {
      out[LINEAR_REGEX_OPERATOR] = rewriteRegex(condition, path);
    } else if (operator !== '$options') {
      throw invalid(`Unsupported filter operator ${operator.slice(0, 40)} on "${path}"`);
    }
  }
  return out;
}

function rewriteAllItem(item: unknown, path: string, depth: number): unknown {
  if (isJsonObject(item) && Object.keys(item).length === 1 && '$elemMatch' in item) {
    return { $elemMatch: rewriteElemMatch(item.$elemMatch, path, depth + 1) };
  }
  return item;
}

/** `$elemMatch` takes either operators on the element itself or a filter over the element's fields. */
function rewriteElemMatch(operand: unknown, path: string, depth: number): Criteria {
  if (!isJsonObject(operand)) throw invalid(`$elemMatch on "${path}" needs an object`);
  const keys = Object.keys(operand);
  const onElement = keys.length > 0 && keys.every((key) => key.startsWith('$') && !LOGICAL.has(key));
  return onElement ? rewriteOperators(operand, path, depth) : rewriteFilter(operand, depth);
}

function rewriteCondition(path: string, condition: unknown, depth: number): unknown {
  if (isJsonObject(condition)) {
    const keys = Object.keys(condition);
    const operatorCount = keys.filter((key) => key.startsWith('$')).length;
    if (operatorCount > 0) {
      if (operatorCount !== keys.length) throw invalid(`The condition on "${path}" mixes operators and plain fields`);
      return rewriteOperators(condition, path, depth);
    }
  }
  checkJsonValue(condition, `The value compared with "${path}"`, MAX_FILTER_DEPTH, 'invalid_filter');
  return { $eq: condition };
}

function rewriteFilter(filter: unknown, depth: number): Criteria {
  if (!isJsonObject(filter)) throw invalid('A filter must be a JSON object');
  if (depth > MAX_FILTER_DEPTH) throw invalid(`Filters may nest at most ${MAX_FILTER_DEPTH} levels`);
  const out: Criteria = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (LOGICAL.has(key)) {
      const branches = requireArray(key, condition, key);
      if (branches.length === 0) throw invalid(`${key} needs at least one condition`);
      out[key] = branches.map((branch) => rewriteFilter(branch, depth + 1));
    } else if (key.startsWith('$')) {
      throw invalid(`Unsupported top-level filter operator ${key.slice(0, 40)}`);
    } else {
      checkFieldPath(key, 'The filter field', 'invalid_filter');
      // Safe as a plain assignment: checkFieldPath refused every reserved name.
      out[key] = rewriteCondition(key, condition, depth + 1);
    }
  }
  return out;
}

/** Validates and rewrites a parsed JSON filter; throws a 400 `invalid_filter` for anything unsupported. */
export function rewriteFilterForEngine(filter: unknown): Criteria {
  checkFilterSize(filter);
  return rewriteFilter(filter, 0);
}

/**
 * The condition of `$pull` (an element value, an operator object, or a filter over element
 * documents), validated and rewritten like a filter so that `$regex` there is linear too.
 */
export function rewritePullCondition(path: string, condition: unknown): unknown {
  checkFilterSize(condition);
  if (isJsonObject(condition) && !Object.keys(condition).some((key) => key.startsWith('$')))
    return rewriteFilter(condition, 1);
  return rewriteCondition(path, condition, 1);
}
