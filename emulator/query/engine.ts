import { Context } from 'mingo';
import { Aggregator } from 'mingo/aggregator';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as queryOperators from 'mingo/operators/query';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { update } from 'mingo/updater';
import { resolve } from 'mingo/util';

import { DomainError, invalidInput } from '../core/errors';
import { chargeQueryEvaluation } from './budget';
import { LINEAR_REGEX_OPERATOR, rewriteFilterForEngine, type Criteria } from './filter';
import { compileLinearRegex, type LinearRegexSpec } from './linear-regex';
import { manualOperators } from './manual-operators';
import { checkUpdateTargets } from './update-operators';

/**
 * MongoDB semantics from mingo: filters, the sort order of mixed values, projection. The engine's
 * context holds only the documented query operators plus `$linearRegex` (RE2), so `$where`,
 * `$expr`, `$function` and the native `$regex` do not exist in it even if validation missed one.
 */

export type RecordPredicate = (record: Record<string, unknown>) => boolean;
type AnyRecord = Record<string, unknown>;

/** A compiled filter that still knows its (validated, rewritten) criteria, for the index planner. */
export interface CompiledFilter extends RecordPredicate {
  readonly criteria: Criteria;
}

/** The filter of a query without one: matches every record, costs nothing per record. */
export const MATCH_ALL: CompiledFilter = Object.assign(() => true, { criteria: {} });

const ALLOWED = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$type',
  '$all',
  '$size',
  '$elemMatch',
  '$mod',
  '$not',
  '$and',
  '$or',
  '$nor',
] as const;

function buildContext(): Context {
  const available = queryOperators as unknown as Record<
    string,
    (selector: string, value: unknown, options: Options) => RecordPredicate
  >;
  const operators: Record<`$${string}`, (selector: string, value: unknown, options: Options) => RecordPredicate> = {};
  for (const name of ALLOWED) {
    const operator = available[name];
    if (!operator) throw new Error(`mingo lacks the query operator ${name}`);
    operators[name] = operator;
  }
  // Where mingo departs from the MongoDB manual, the manual's version replaces it (manual-operators.ts).
  Object.assign(operators, manualOperators(operators));
  const regex = available.$regex as (selector: string, value: unknown, options: Options) => RecordPredicate;
  // mingo's $regex predicate only calls `exec` on its operand: hand it the RE2 matcher.
  operators[LINEAR_REGEX_OPERATOR] = (selector, value, options) =>
    regex(selector, compileLinearRegex(value as LinearRegexSpec, selector), options);
  return Context.init({
    query: operators as never,
    pipeline: pick(pipelineOperators, PIPELINE_STAGES),
    accumulator: pick(accumulatorOperators, ACCUMULATORS),
    expression: pick(expressionOperators, EXPRESSIONS),
  });
}

/** Stages, accumulators and expressions for the pipelines the emulator itself builds (sorts, aggregate()). */
const PIPELINE_STAGES = ['$match', '$sort', '$group', '$project', '$limit', '$skip', '$addFields', '$unwind'] as const;
const ACCUMULATORS = ['$sum', '$avg', '$min', '$max', '$addToSet', '$first'] as const;
const EXPRESSIONS = [
  '$size',
  '$ifNull',
  '$toDate',
  '$dateTrunc',
  '$dateToString',
  '$type',
  '$eq',
  '$cond',
  '$isArray',
  '$literal',
] as const;

function pick(from: object, names: readonly string[]): never {
  const source = from as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    if (!source[name]) throw new Error(`mingo lacks the operator ${name}`);
    picked[name] = source[name];
  }
  return picked as never;
}

export const ENGINE_OPTIONS: Partial<Options> = { context: buildContext(), scriptEnabled: false, idKey: 'id' };

/** Errors from inside the engine (an operand it rejects) are the caller's mistake: 400, not 500. */
function asBadRequest(error: unknown): never {
  if (error instanceof DomainError) throw error;
  throw invalidInput(`The filter was rejected by the query engine: ${(error as Error).message}`, 'invalid_filter');
}

type Verdict = boolean | undefined;
type FieldCheck = (value: unknown) => boolean;

const SCALAR_CHECKS: Readonly<Record<string, (operand: string | number) => FieldCheck>> = {
  $eq: (operand) => (value) => value === operand,
  $ne: (operand) => (value) => value !== operand,
  $gt: (operand) => (value) => typeof value === typeof operand && (value as typeof operand) > operand,
  $gte: (operand) => (value) => typeof value === typeof operand && (value as typeof operand) >= operand,
  $lt: (operand) => (value) => typeof value === typeof operand && (value as typeof operand) < operand,
  $lte: (operand) => (value) => typeof value === typeof operand && (value as typeof operand) <= operand,
};

/**
 * The engine's own answer, computed directly, for the commonest filters: every part a top-level
 * field compared with a string or number (`{ team: "red", points: { $gte: 500 } }`). Where a
 * record's field holds a scalar or nothing, the comparison is exactly what mingo's operators do
 * (same type, then `<`/`>`; equality is `===`); where it holds an array or a document, the verdict
 * is left to the engine (undefined), which knows how to walk them.
 */
function fastPathOf(criteria: Criteria): ((record: AnyRecord) => Verdict) | null {
  const checks: [string, FieldCheck][] = [];
  for (const [path, condition] of Object.entries(criteria)) {
    if (path.startsWith('$') || path.includes('.')) return null;
    for (const [operator, operand] of Object.entries(condition as AnyRecord)) {
      const make = Object.hasOwn(SCALAR_CHECKS, operator) ? SCALAR_CHECKS[operator] : undefined;
      if (!make || (typeof operand !== 'string' && typeof operand !== 'number')) return null;
      checks.push([path, make(operand)]);
    }
  }
  if (checks.length === 0) return null;
  return (record) => {
    for (const [path, check] of checks) {
      const value = Object.hasOwn(record, path) ? record[path] : undefined;
      if (typeof value === 'object' && value !== null) return undefined;
      if (!check(value)) return false;
    }
    return true;
  };
}

export function compileCriteria(criteria: Criteria): CompiledFilter {
  let query: Query<AnyRecord>;
  try {
    query = new Query<AnyRecord>(criteria, ENGINE_OPTIONS);
  } catch (error) {
    asBadRequest(error);
  }
  const fastPath = fastPathOf(criteria);
  const test = (record: AnyRecord) => {
    chargeQueryEvaluation();
    const verdict = fastPath?.(record);
    if (verdict !== undefined) return verdict;
    try {
      return query.test(record);
    } catch (error) {
      return asBadRequest(error);
    }
  };
  return Object.assign(test, { criteria });
}

/** A parsed JSON filter to a predicate, or a 400 naming what is wrong. */
export function compileFilter(filter: unknown): CompiledFilter {
  return compileCriteria(rewriteFilterForEngine(filter));
}

/** The value at a dotted path, MongoDB-style (through arrays), as the engine sees it. */
export function valueAt(record: unknown, path: string): unknown {
  // A top-level field needs no traversal: an own-property read is the engine's answer, much faster.
  if (!path.includes('.') && typeof record === 'object' && record !== null && !Array.isArray(record)) {
    return Object.hasOwn(record, path) ? (record as AnyRecord)[path] : undefined;
  }
  return resolve(record as AnyRecord, path);
}

/** Runs a pipeline built by the emulator (never by a client) over records. */
export function runPipeline(records: readonly AnyRecord[], stages: AnyRecord[]): AnyRecord[] {
  try {
    return new Aggregator(stages, ENGINE_OPTIONS).run(records as AnyRecord[]) as AnyRecord[];
  } catch (error) {
    return asBadRequest(error);
  }
}

/** Applies MongoDB update operators (already validated) to a copy of `record`. */
export function applyUpdateOperators(record: AnyRecord, modifier: AnyRecord): AnyRecord {
  checkUpdateTargets(record, modifier as Record<string, Record<string, unknown>>, valueAt);
  const copy = structuredClone(record);
  try {
    update(copy, modifier as never, undefined, undefined, { cloneMode: 'deep', queryOptions: ENGINE_OPTIONS });
  } catch (error) {
    asBadRequest(error);
  }
  return copy;
}
