/**
 * The client's own reading of a filter and a sort, for the fallback of docs/LIVE-QUERIES.md (a
 * platform whose socket sends every change of an entity): may this changed record affect the
 * result? Each answer is `true`, `false`, or `undefined` ("not sure"), and only a sure `false` lets
 * the fallback skip a refetch. So it knows little and says so: plain fields, equality, `$in`/`$nin`,
 * `$exists`, number ranges, `$and`/`$or`/`$nor`, sorts by numbers and by date-times of one zone;
 * arrays, nested paths, other operators, other strings compared by order and fields the event does
 * not carry are "not sure". Pure.
 */
import { isRecordObject } from './parse';

export type Verdict = boolean | undefined;

type Scalar = string | number | boolean;

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function not(verdict: Verdict): Verdict {
  return verdict === undefined ? undefined : !verdict;
}

/** All of them: false as soon as one is surely false, true only if all are surely true. */
function every(verdicts: Iterable<Verdict>): Verdict {
  let sure = true;
  for (const verdict of verdicts) {
    if (verdict === false) return false;
    if (verdict === undefined) sure = false;
  }
  return sure ? true : undefined;
}

function some(verdicts: Iterable<Verdict>): Verdict {
  return not(every([...verdicts].map(not)));
}

/** `field == operand` for a scalar field and a scalar operand (different types never match). */
function equals(value: unknown, operand: unknown): Verdict {
  if (!isScalar(value) || !isScalar(operand)) return undefined;
  return value === operand;
}

function compareNumbers(value: unknown, operand: unknown, test: (left: number, right: number) => boolean): Verdict {
  if (typeof value !== 'number' || typeof operand !== 'number') return undefined;
  return test(value, operand);
}

const RANGE: Record<string, (left: number, right: number) => boolean> = {
  $gt: (left, right) => left > right,
  $gte: (left, right) => left >= right,
  $lt: (left, right) => left < right,
  $lte: (left, right) => left <= right,
};

function operator(name: string, operand: unknown, value: unknown): Verdict {
  if (name === '$eq') return equals(value, operand);
  if (name === '$ne') return not(equals(value, operand));
  if (name === '$in' || name === '$nin') {
    if (!Array.isArray(operand)) return undefined;
    const found = some(operand.map((candidate) => equals(value, candidate)));
    return name === '$in' ? found : not(found);
  }
  if (name === '$exists' && typeof operand === 'boolean') return (value !== undefined) === operand;
  const range = RANGE[name];
  return range ? compareNumbers(value, operand, range) : undefined;
}

function condition(record: Record<string, unknown>, field: string, expected: unknown): Verdict {
  if (field.includes('.') || !Object.hasOwn(record, field)) {
    // Unknown, `$exists` included: an event may leave out a field the record has (one its field
    // rules hide from this socket's caller, a partial payload), so absence proves nothing.
    return undefined;
  }
  const value = record[field];
  if (isRecordObject(expected)) {
    const names = Object.keys(expected);
    if (names.length === 0 || !names.every((name) => name.startsWith('$'))) return undefined;
    return every(names.map((name) => operator(name, expected[name], value)));
  }
  return equals(value, expected);
}

/** Whether `record` (a change event's data) matches `filter`, if that can be told for sure. */
export function matchFilter(filter: unknown, record: Record<string, unknown>): Verdict {
  if (filter === undefined || filter === null) return true;
  if (!isRecordObject(filter)) return undefined;
  return every(
    Object.entries(filter).map(([key, expected]): Verdict => {
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(expected)) return undefined;
        const parts = expected.map((part) => matchFilter(part, record));
        if (key === '$and') return every(parts);
        return key === '$or' ? some(parts) : not(some(parts));
      }
      if (key.startsWith('$')) return undefined;
      return condition(record, key, expected);
    }),
  );
}

/** An ISO 8601 date-time; group 1 is its zone (`Z` or an offset). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether two strings order the same by code unit (a backend comparing text) and by time (one
 * comparing dates): ISO date-times of equal length in the same zone. Different zones do not:
 * `10:00+02:00` is earlier than `09:00Z` but sorts after it as text.
 */
function lexicalDateTimes(left: string, right: string): boolean {
  const leftZone = TIMESTAMP.exec(left)?.[1];
  return left.length === right.length && leftZone !== undefined && TIMESTAMP.exec(right)?.[1] === leftZone;
}

/** -1, 0 or 1 when two sort values surely compare so on any backend; undefined otherwise. */
function surelyCompare(left: unknown, right: unknown): number | undefined {
  if (typeof left === 'number' && typeof right === 'number') return Math.sign(left - right);
  if (typeof left === 'string' && typeof right === 'string' && lexicalDateTimes(left, right))
    return left < right ? -1 : left > right ? 1 : 0;
  return undefined;
}

/**
 * Whether `record` surely sorts after `last` under `sort` (so it stays outside a full window).
 * Only the first key decides; a tie or anything not surely comparable is "not sure". Without a sort
 * the server's default applies, which the client does not presume to know.
 */
export function sortsAfter(record: Record<string, unknown>, last: Record<string, unknown>, sort: unknown): Verdict {
  if (typeof sort !== 'string') return undefined;
  const first = sort.split(',')[0]?.trim() ?? '';
  const descending = first.startsWith('-');
  const field = descending || first.startsWith('+') ? first.slice(1) : first;
  if (field === '' || field.includes('.') || !Object.hasOwn(record, field) || !Object.hasOwn(last, field))
    return undefined;
  const order = surelyCompare(record[field], last[field]);
  if (order === undefined || order === 0) return undefined;
  return descending ? order < 0 : order > 0;
}
