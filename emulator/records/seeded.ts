import type { EntityRecord } from '../core/types';
import type { StoreChange } from '../store/store';

/**
 * Records of the seed (emulator/seed/): the developer's own starting data, written before the
 * emulator serves anyone, so no caller's rules apply and nobody is listening yet. Nothing else
 * writes a record without the door of records/commit.ts.
 */
export function plantRecords(
  change: StoreChange,
  appId: string,
  entity: string,
  records: readonly EntityRecord[],
): void {
  change.insertRecords(appId, entity, records);
}
