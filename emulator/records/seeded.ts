import type { EntityRecord } from '../core/types';
import type { Store } from '../store/store';

/**
 * Records of the seed (emulator/seed/): the developer's own starting data, written before the
 * emulator serves anyone, so no caller's rules apply and nobody is listening yet. Nothing else
 * writes a record without the commit step of records/commit.ts.
 */
export function plantRecords(store: Store, appId: string, entity: string, records: readonly EntityRecord[]): void {
  const collection = store.collection(appId, entity);
  for (const record of records) collection[record.id] = record;
}
