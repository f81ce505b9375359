import { badRequest } from '../http/errors';
import { readPath } from './filter';

/**
 * `sort` = comma-joined field paths, a leading `-` meaning descending (the platform's default is
 * `-created_date`). Records with equal keys keep insertion order (reversed when descending, so
 * "newest first" stays true for records created within the same millisecond).
 */

export interface SortKey {
  path: string;
  descending: boolean;
}

const FIELD_PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

export function parseSort(spec: string): SortKey[] {
  const keys = spec
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const descending = part.startsWith('-');
      const path = descending || part.startsWith('+') ? part.slice(1) : part;
      if (!FIELD_PATH.test(path)) throw badRequest(`"${part}" is not a valid sort field`, 'invalid_sort');
      return { path, descending };
    });
  if (keys.length === 0) throw badRequest('sort needs at least one field', 'invalid_sort');
  return keys;
}

function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  if (typeof value === 'boolean') return 3;
  if (Array.isArray(value)) return 5;
  return 4;
}

export function compareValues(left: unknown, right: unknown): number {
  const rankDiff = typeRank(left) - typeRank(right);
  if (rankDiff !== 0) return rankDiff;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  const leftText = JSON.stringify(left) ?? '';
  const rightText = JSON.stringify(right) ?? '';
  return leftText < rightText ? -1 : leftText > rightText ? 1 : 0;
}

/** Returns a new array; `records` is expected in insertion order. */
export function sortRecords<T extends Record<string, unknown>>(records: readonly T[], keys: readonly SortKey[]): T[] {
  const indexed = records.map((record, index) => ({ record, index }));
  indexed.sort((left, right) => {
    for (const key of keys) {
      const diff = compareValues(readPath(left.record, key.path), readPath(right.record, key.path));
      if (diff !== 0) return key.descending ? -diff : diff;
    }
    const insertion = left.index - right.index;
    return keys[0]?.descending ? -insertion : insertion;
  });
  return indexed.map((entry) => entry.record);
}
