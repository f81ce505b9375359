import { createToastStore, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@/lib/toast/store';

function fakeTimers() {
  const pending = new Map<number, { at: number; run: () => void }>();
  let now = 0;
  let next = 1;
  return {
    schedule: ((run: () => void, delay: number) => {
      const id = next++;
      pending.set(id, { at: now + delay, run });
      return id as unknown as ReturnType<typeof setTimeout>;
    }) as unknown as typeof setTimeout,
    cancel: ((id: number) => void pending.delete(id)) as unknown as typeof clearTimeout,
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(id);
          timer.run();
        }
      }
    },
    get pendingCount() {
      return pending.size;
    },
  };
}

describe('toast store', () => {
  it('puts a new toast at the front', () => {
    const store = createToastStore();
    store.add({ title: 'first' });
    store.add({ title: 'second' });
    expect(store.get().map((t) => t.title)).toEqual(['second', 'first']);
    expect(store.get().every((t) => t.open)).toBe(true);
  });

  it(`keeps at most ${TOAST_LIMIT} toasts, dropping the oldest`, () => {
    const store = createToastStore();
    for (let i = 1; i <= 25; i++) store.add({ title: `t${i}` });
    expect(TOAST_LIMIT).toBe(20);
    expect(store.get()).toHaveLength(20);
    expect(store.get()[0]?.title).toBe('t25');
    expect(store.get()[19]?.title).toBe('t6');
  });

  it('updates a toast in place without reopening or moving it', () => {
    const store = createToastStore();
    const id = store.add({ title: 'Saving…' });
    store.add({ title: 'other' });
    store.update(id, { title: 'Saved', variant: 'default' });
    expect(store.get().map((t) => t.title)).toEqual(['other', 'Saved']);
  });

  it(`closes a dismissed toast and removes it after ${TOAST_REMOVE_DELAY_MS} ms`, () => {
    const timers = fakeTimers();
    const store = createToastStore({ schedule: timers.schedule, cancel: timers.cancel });
    const id = store.add({ title: 'bye' });
    store.dismiss(id);
    expect(store.get()).toEqual([expect.objectContaining({ id, open: false })]);
    timers.advance(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.get()).toHaveLength(1);
    timers.advance(1);
    expect(store.get()).toEqual([]);
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
  });

  it('dismisses all toasts at once and schedules one removal each', () => {
    const timers = fakeTimers();
    const store = createToastStore({ schedule: timers.schedule, cancel: timers.cancel });
    store.add({ title: 'a' });
    store.add({ title: 'b' });
    store.dismiss();
    store.dismiss();
    expect(store.get().every((t) => !t.open)).toBe(true);
    expect(timers.pendingCount).toBe(2);
  });

  it('removes immediately on remove() and cancels the pending removal', () => {
    const timers = fakeTimers();
    const store = createToastStore({ schedule: timers.schedule, cancel: timers.cancel });
    const id = store.add({ title: 'x' });
    store.dismiss(id);
    store.remove(id);
    expect(store.get()).toEqual([]);
    expect(timers.pendingCount).toBe(0);
  });

  it('notifies subscribers on every change and stops after unsubscribe', () => {
    const store = createToastStore();
    const listener = jest.fn();
    const unsubscribe = store.subscribe(listener);
    store.add({ title: 'x' });
    unsubscribe();
    store.add({ title: 'y' });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
