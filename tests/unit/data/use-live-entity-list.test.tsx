/**
 * useLiveEntityList where the watch never starts: a socket that keeps retrying (websockets blocked
 * on the visitor's network, the real-time endpoint down) reports no error, so the watch neither
 * delivers nor fails. The list must still show what `filter()` over HTTP returns, as it did before
 * the hook was built on `watch()`. (The emulator-backed suite, tests/integration/data, covers the
 * watch that does start.)
 */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

import { FIRST_RESULT_WAIT_MS, useLiveEntityList, type EntitySource } from '@/lib/data/use-live-entity-list';
import type { EntityHandler, EntityRecord } from '@/lib/sdk';

type Todo = { title: string };

const RECORDS: EntityRecord<Todo>[] = [
  { id: 'a', title: 'first', created_date: '2026-01-01T00:00:00.000Z', updated_date: '2026-01-01T00:00:00.000Z' },
] as EntityRecord<Todo>[];

function FreshCache({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: () => new Map() }}>{children}</SWRConfig>;
}

/** A handler whose watch is accepted but never connects; `filter()` answers over "HTTP". */
function unconnectedSource() {
  const filter = jest.fn(async () => RECORDS);
  const stops = jest.fn();
  const watch = jest.fn(() => stops);
  const handler = { filter, watch } as unknown as EntityHandler<Todo>;
  const source: EntitySource = { entity: <T extends object>() => handler as unknown as EntityHandler<T> };
  return { source, filter, watch };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('shows the list from HTTP when the watch has delivered nothing after a short wait', async () => {
  const { source, filter, watch } = unconnectedSource();
  const { result } = renderHook(
    () => {
      // Read during render, as a component would: SWR re-renders only for fields that were read.
      const { data, live } = useLiveEntityList<Todo>(source, 'Todo', { filter: { title: 'first' } });
      return { data, live };
    },
    { wrapper: FreshCache },
  );
  await act(() => jest.advanceTimersByTimeAsync(FIRST_RESULT_WAIT_MS - 1));
  expect(watch).toHaveBeenCalledTimes(1);
  // The watch may still start: no HTTP read yet.
  expect(filter).not.toHaveBeenCalled();
  expect(result.current.data).toBeUndefined();
  await act(() => jest.advanceTimersByTimeAsync(2));
  expect(filter).toHaveBeenCalledWith({ title: 'first' }, undefined, undefined, 0, undefined);
  expect(result.current.data).toEqual(RECORDS);
  expect(result.current.live.status).toBe('connecting');
});
