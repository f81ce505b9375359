import { invalidInput } from '../core/errors';
import { checkFieldPath, checkJsonValue } from '../core/json-guard';
import { BUILT_IN_FIELDS } from '../core/types';
import { rewritePullCondition } from './filter';

/**
 * Validates the update document of `updateMany` (MongoDB update operators). Only the operators the
 * platform documents; every field path checked (no reserved names, no system fields); no two paths
 * on one field, `$rename` targets and nested paths included (MongoDB refuses `{$set: {a: …},
 * $inc: {'a.b': 1}}` as a conflict: applied in order it would depend on which operator ran first). `$currentDate` becomes a `$set` of the emulator's clock as an ISO string;
 * `$pull` conditions are rewritten like filters (documented operators only, `$regex` on RE2).
 */

const OPERATORS = new Set([
  '$set',
  '$rename',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$currentDate',
  '$addToSet',
  '$push',
  '$pull',
]);

const invalid = (message: string) => invalidInput(message, 'invalid_update');

/** Operators that need a number where they write, and those that need an array (MongoDB's rules). */
const ARITHMETIC = new Set(['$inc', '$mul']);
const ARRAY_OPERATORS = new Set(['$addToSet', '$push', '$pull']);

/** What a stored value is, in words: null, an array, an object, a string ... */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Refuses an update that cannot apply to this record, as MongoDB does ("Cannot apply $inc to a value
 * of non-numeric type"): arithmetic on a stored value that is no number (null included), an array
 * operator on one that is no array. A missing field is fine (the operator creates it). Checked before
 * anything is written, so a refused `updateMany` changes no record (MongoDB's stops part-way).
 */
export function checkUpdateTargets(
  record: Record<string, unknown>,
  prepared: Record<string, Record<string, unknown>>,
  valueAt: (record: Record<string, unknown>, path: string) => unknown,
): void {
  for (const [operator, paths] of Object.entries(prepared)) {
    const needsNumber = ARITHMETIC.has(operator);
    if (!needsNumber && !ARRAY_OPERATORS.has(operator)) continue;
    for (const path of Object.keys(paths)) {
      const current = valueAt(record, path);
      if (current === undefined) continue;
      if (needsNumber ? typeof current !== 'number' : !Array.isArray(current)) {
        throw invalid(
          `Cannot apply ${operator} to "${path}" of record ${String(record.id).slice(0, 60)}: it holds ${kindOf(current)}, not ${needsNumber ? 'a number' : 'an array'}`,
        );
      }
    }
  }
}

function checkUpdatePath(path: string): string {
  checkFieldPath(path, 'The update field', 'invalid_update');
  const root = path.split('.')[0] as string;
  if (BUILT_IN_FIELDS.has(root)) throw invalid(`The system field "${root}" cannot be updated`);
  return path;
}

/** True when one path is the other or lies inside it (`a` and `a.b`, not `a` and `ab`). */
function overlaps(first: string, second: string): boolean {
  return first === second || first.startsWith(`${second}.`) || second.startsWith(`${first}.`);
}

/** Adds a path an operator names, refusing one that conflicts with a path named before. */
function claimPath(claimed: string[], path: string): void {
  const conflict = claimed.find((other) => overlaps(other, path));
  if (conflict !== undefined) {
    throw invalid(
      conflict === path
        ? `The field "${path}" is named more than once in the update`
        : `Updating the path "${path}" would conflict with "${conflict}" in the same update`,
    );
  }
  claimed.push(path);
}

export function prepareUpdate(data: unknown, nowIso: string): Record<string, Record<string, unknown>> {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || Object.keys(data).length === 0) {
    throw invalid('The update must be an object of update operators, such as { "$set": { "status": "done" } }');
  }
  checkJsonValue(data, 'The update', undefined, 'invalid_update');
  const claimed: string[] = [];
  const prepared: Record<string, Record<string, unknown>> = {};
  for (const [operator, fields] of Object.entries(data)) {
    if (!OPERATORS.has(operator)) throw invalid(`Unsupported update operator ${operator.slice(0, 40)}`);
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
      throw invalid(`${operator} needs an object of fields`);
    for (const [path, value] of Object.entries(fields as Record<string, unknown>)) {
      checkUpdatePath(path);
      claimPath(claimed, path);
      if (operator === '$rename') {
        if (typeof value !== 'string') throw invalid(`$rename of "${path}" needs the new field name`);
        claimPath(claimed, checkUpdatePath(value));
      }
      if (ARITHMETIC.has(operator) && (typeof value !== 'number' || !Number.isFinite(value)))
        throw invalid(`${operator} of "${path}" needs a number, not ${JSON.stringify(value)?.slice(0, 40)}`);
      const target = operator === '$currentDate' ? '$set' : operator;
      prepared[target] ??= {};
      // $pull's condition is a query: it must take the same checked, linear-time path as filters.
      const preparedValue =
        operator === '$currentDate' ? nowIso : operator === '$pull' ? rewritePullCondition(path, value) : value;
      (prepared[target] as Record<string, unknown>)[path] = preparedValue;
    }
  }
  return prepared;
}

/**
 * The fields an update touches: the first segment of every path an operator names, sources and
 * targets alike (`$rename` reads one field and writes another; `$pull` reads the array it
 * changes). Whoever applies the update judges each of them.
 */
export function touchedFields(prepared: Record<string, Record<string, unknown>>): string[] {
  const fields = new Set<string>();
  for (const [operator, paths] of Object.entries(prepared)) {
    for (const [path, value] of Object.entries(paths)) {
      fields.add(path.split('.')[0] as string);
      if (operator === '$rename') fields.add((value as string).split('.')[0] as string);
    }
  }
  return [...fields];
}
