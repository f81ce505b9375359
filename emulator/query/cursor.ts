import { DomainError, invalidInput } from '../core/errors';
import { checkJsonValue } from '../core/json-guard';

/**
 * Cursor tokens of `GET .../v2/list`: the walk (query, sort, fields or distinct field) plus the
 * sort position of the last item served. The next page starts strictly after that position, so
 * records inserted or deleted between pages never shift the boundary. The token is opaque to
 * clients but not secret: everything in it is validated again like a fresh request.
 */

export interface PageWalk {
  app: string;
  entity: string;
  /** The parsed `q` filter, or null for all records. */
  q: unknown;
  sort: string | null;
  fields: string[] | null;
  distinct: string | null;
}

export interface PageCursor extends PageWalk {
  /** Sort values (records: every sort key, then `id`; distinct: the last value). */
  after: unknown[];
}

const MAX_CURSOR_LENGTH = 64 * 1024;

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor }), 'utf8').toString('base64url');
}

const invalid = (why: string) =>
  invalidInput(`The cursor is not valid (${why}); start again without one`, 'invalid_cursor');

const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

export function decodeCursor(token: string, app: string, entity: string): PageCursor {
  if (token.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid('not a cursor token');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
  } catch {
    throw invalid('not a cursor token');
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('not a cursor token');
  const cursor = parsed as Record<string, unknown>;
  if (
    cursor.v !== 1 ||
    !Array.isArray(cursor.after) ||
    !isStringOrNull(cursor.sort) ||
    !isStringOrNull(cursor.distinct)
  ) {
    throw invalid('unknown format');
  }
  if (
    cursor.fields !== null &&
    !(Array.isArray(cursor.fields) && cursor.fields.every((field) => typeof field === 'string'))
  ) {
    throw invalid('unknown format');
  }
  if (cursor.app !== app || cursor.entity !== entity) throw invalid('it belongs to another entity');
  try {
    checkJsonValue(cursor, 'The cursor', 32);
  } catch (error) {
    if (error instanceof DomainError) throw invalid(error.message);
    throw error;
  }
  return {
    app,
    entity,
    q: cursor.q ?? null,
    sort: cursor.sort as string | null,
    fields: cursor.fields as string[] | null,
    distinct: cursor.distinct as string | null,
    after: cursor.after,
  };
}

/** A cursor continues its own walk only: a different query, sort, fields or field is a 400. */
export function requireSameWalk(cursor: PageWalk, request: Partial<PageWalk>): void {
  const differs = (name: keyof PageWalk) =>
    request[name] !== undefined && JSON.stringify(request[name]) !== JSON.stringify(cursor[name]);
  const changed = (['q', 'sort', 'fields', 'distinct'] as const).filter(differs);
  if (changed.length > 0) {
    throw invalidInput(
      `A cursor carries its own ${changed.join(', ')}; pass only cursor and limit, or start a new walk`,
      'cursor_mismatch',
    );
  }
}
