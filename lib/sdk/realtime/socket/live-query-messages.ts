/**
 * The live-query messages of docs/LIVE-QUERIES.md, decoded defensively (nothing here throws; what
 * cannot be read is null, and the caller resyncs), and the one rule that applies an edit. Pure.
 */
import type { EntityRecord, WatchChangeType } from '../../core/types';
import { isRecordObject, MAX_UPDATE_DATA_LENGTH, parseJson } from './parse';

/** The exact change from one result to the next, as the server computed it. */
export interface ResultEdit {
  remove: string[];
  put: { index: number; record: EntityRecord }[];
}

/** `subscribed`: the first result of a query (or a fresh one, after a resync). */
export interface SubscribedMessage {
  room: string;
  entities: EntityRecord[];
  timestamp: string;
}

/** One `update_model` of a query room. */
export interface QueryUpdate {
  seq: number;
  changeType: WatchChangeType | undefined;
  timestamp: string;
  edit: ResultEdit;
}

const CHANGE_TYPES: ReadonlySet<string> = new Set(['added', 'modified', 'removed']);

const isRecord = (value: unknown): value is EntityRecord => isRecordObject(value) && typeof value.id === 'string';

const timestampOf = (value: unknown): string => (typeof value === 'string' ? value : new Date().toISOString());

export function parseSubscribed(payload: unknown): SubscribedMessage | null {
  if (!isRecordObject(payload) || typeof payload.room !== 'string' || payload.seq !== 0) return null;
  const { entities } = payload;
  if (!Array.isArray(entities) || !entities.every(isRecord)) return null;
  return { room: payload.room, entities, timestamp: timestampOf(payload.timestamp) };
}

function parseEdit(update: Record<string, unknown>): ResultEdit | null {
  const { remove, put } = update;
  if (!Array.isArray(remove) || !remove.every((id) => typeof id === 'string')) return null;
  if (!Array.isArray(put)) return null;
  const entries = put.filter(
    (entry): entry is ResultEdit['put'][number] =>
      isRecordObject(entry) && Number.isInteger(entry.index) && (entry.index as number) >= 0 && isRecord(entry.record),
  );
  return entries.length === put.length ? { remove, put: entries } : null;
}

/** A query room's `update_model` data (JSON text); null when it is not one. */
export function parseQueryUpdate(data: unknown): QueryUpdate | null {
  if (typeof data === 'string' && data.length > MAX_UPDATE_DATA_LENGTH) return null;
  const update = parseJson(data);
  if (!isRecordObject(update) || !Number.isInteger(update.seq)) return null;
  const edit = parseEdit(update);
  if (!edit) return null;
  const changeType =
    typeof update.change_type === 'string' && CHANGE_TYPES.has(update.change_type)
      ? (update.change_type as WatchChangeType)
      : undefined;
  return { seq: update.seq as number, changeType, timestamp: timestampOf(update.timestamp), edit };
}

/**
 * Applies an edit: drop every record whose id is in `remove` or `put`, then insert each `put` record
 * at its index, in ascending order. Null when an index does not fit (the edit was not meant for
 * this list: resync).
 */
export function applyEdit<R extends { id: string }>(
  list: readonly R[],
  edit: { remove: readonly string[]; put: readonly { index: number; record: R }[] },
): R[] | null {
  const dropped = new Set([...edit.remove, ...edit.put.map(({ record }) => record.id)]);
  const next = list.filter((record) => !dropped.has(record.id));
  for (const { index, record } of [...edit.put].sort((left, right) => left.index - right.index)) {
    if (index > next.length) return null;
    next.splice(index, 0, record);
  }
  return next;
}

/** What turned `before` into `after`: a record entered, else one left, else one changed. */
export function changeBetween(before: readonly { id: string }[], after: readonly { id: string }[]): WatchChangeType {
  const had = new Set(before.map((record) => record.id));
  if (after.some((record) => !had.has(record.id))) return 'added';
  return after.length < before.length ? 'removed' : 'modified';
}

/** JSON with object keys sorted: equal options give equal keys whatever their order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([left], [right]) => (left < right ? -1 : 1)))
      : inner,
  );
}
