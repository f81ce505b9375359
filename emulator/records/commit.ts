import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { outsideQueryBudget } from '../query/budget';
import type { StoreChange } from '../store/store';

/**
 * The door of every record write, the same for every path: the records go into one store change
 * (with whatever belongs with them), and `Store.write` (the one commit path) checks the byte budget
 * on each record as it will be stored (after any merge), writes, waits until the change is durable,
 * and then runs the real-time publish. Callers have already validated the records and applied the
 * rules.
 */

export interface RecordChange {
  type: 'create' | 'update' | 'delete';
  record: EntityRecord;
}

/** Stages the changes in order, a run of one type at a time. */
function stageRecords(change: StoreChange, appId: string, entity: string, changes: readonly RecordChange[]): void {
  for (let start = 0; start < changes.length;) {
    const type = (changes[start] as RecordChange).type;
    let end = start + 1;
    while (end < changes.length && (changes[end] as RecordChange).type === type) end += 1;
    const records = changes.slice(start, end).map((entry) => entry.record);
    if (type === 'create') change.insertRecords(appId, entity, records);
    else if (type === 'update') change.replaceRecords(appId, entity, records);
    else
      change.deleteRecords(
        appId,
        entity,
        records.map((record) => record.id),
      );
    start = end;
  }
}

/**
 * `alongside`: other state that belongs with these records (an invited account and its ticket),
 * staged into the same change, so a refused write leaves nothing behind and a committed one holds both.
 */
export async function commitChanges(
  context: EmulatorContext,
  appId: string,
  entity: string,
  changes: readonly RecordChange[],
  alongside?: (change: StoreChange) => void,
): Promise<void> {
  if (changes.length === 0) return;
  await context.store.write((change) => {
    stageRecords(change, appId, entity, changes);
    alongside?.(change);
    change.afterCommit(() => publishChanges(context, appId, entity, changes));
  });
}

/**
 * Tells real-time about committed changes: the one place every record change reaches subscribers
 * from (each subscriber receives only what it may read: realtime/socket.ts). Checking subscribers
 * is work for them, not a query of the writing request: it runs on no query clock, so a write
 * whose request used up its budget still reaches everyone who may read it.
 */
export function publishChanges(
  context: EmulatorContext,
  appId: string,
  entity: string,
  changes: readonly RecordChange[],
): void {
  outsideQueryBudget(() => {
    for (const { type, record } of changes) context.realtime.entityChanged(appId, entity, type, record);
  });
}
