/**
 * The checks of `watch()`'s arguments. They load with real-time, like the rest of live queries, so
 * the up-front client carries only the method that forwards (docs/LIVE-QUERIES.md); a problem is
 * reported to `hooks.onError` (else logged) as an INVALID_ARGUMENT error, and nothing is watched.
 */
import { isRecordObject, type RealtimeProblem } from './parse';

/** The code of ErrorCodes.invalidArgument, spelled out so errors.ts stays out of this chunk. */
const INVALID_ARGUMENT = 'INVALID_ARGUMENT';

function optionProblem(options: Record<string, unknown>): string | undefined {
  const { filter, sort, fields, limit } = options;
  if (filter !== undefined && !isRecordObject(filter)) return 'The filter must be an object, e.g. { status: "open" }';
  if (sort !== undefined && typeof sort !== 'string') return 'sort must be a field name, e.g. "-created_date"';
  if (fields !== undefined && !(Array.isArray(fields) && fields.every((field) => typeof field === 'string')))
    return 'fields must be an array of field names';
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 0))
    return 'limit must be a whole number';
  return undefined;
}

/** What is wrong with `watch(options, callback)`'s arguments, if anything. */
export function watchArgumentsProblem(options: unknown, callback: unknown): RealtimeProblem | undefined {
  const message = !isRecordObject(options)
    ? 'watch needs options { filter, sort, fields, limit }'
    : typeof callback !== 'function'
      ? 'watch needs a callback'
      : optionProblem(options);
  return message === undefined ? undefined : { message, code: INVALID_ARGUMENT };
}
