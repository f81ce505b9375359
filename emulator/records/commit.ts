import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';

/**
 * The last step of every record write, the same for every path: the byte budget on each record as
 * it will be stored (after any merge), the write itself, the wait until it is durable, and then the
 * real-time publish. Callers have already validated the records and applied the rules.
 */

export interface RecordChange {
  type: 'create' | 'update' | 'delete';
  record: EntityRecord;
}

/**
 * `alongside`: other state that belongs with these records (an invited account and its ticket), set
 * only once the records have room and committed with them, so a refused write leaves nothing behind.
 */
export async function commitChanges(
  context: EmulatorContext,
  appId: string,
  entity: string,
  changes: readonly RecordChange[],
  alongside?: () => void,
): Promise<void> {
  if (changes.length === 0) return;
  context.store.requireRecordRoom(
    appId,
    changes.map(({ type, record }) => ({ entity, id: record.id, record: type === 'delete' ? undefined : record })),
  );
  alongside?.();
  const records = context.store.collection(appId, entity);
  for (const { type, record } of changes) {
    if (type === 'delete') delete records[record.id];
    else records[record.id] = record;
  }
  await context.store.commit();
  publishChanges(context, appId, entity, changes);
}

/**
 * Tells real-time about committed changes: the one place every record change reaches subscribers
 * from (each subscriber receives only what it may read: realtime/socket.ts).
 */
export function publishChanges(
  context: EmulatorContext,
  appId: string,
  entity: string,
  changes: readonly RecordChange[],
): void {
  for (const { type, record } of changes) context.realtime.entityChanged(appId, entity, type, record);
}
