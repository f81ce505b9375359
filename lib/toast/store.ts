/**
 * Notifications: a small external store. At most TOAST_LIMIT toasts are held, newest first; a
 * dismissed toast stays (closed, so it can animate out) until TOAST_REMOVE_DELAY_MS has passed.
 */
import { useSyncExternalStore } from 'react';

export const TOAST_LIMIT = 20;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface Toast {
  id: string;
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** False once dismissed; the toast is removed after the delay. */
  open: boolean;
}

export type ToastInput = Omit<Toast, 'id' | 'open'>;

type Listener = () => void;

export function createToastStore({ schedule = setTimeout, cancel = clearTimeout } = {}) {
  let toasts: Toast[] = [];
  let counter = 0;
  const listeners = new Set<Listener>();
  const removals = new Map<string, ReturnType<typeof setTimeout>>();

  function emit(next: Toast[]) {
    toasts = next;
    for (const listener of listeners) listener();
  }

  function remove(id?: string) {
    const ids = id === undefined ? toasts.map((toast) => toast.id) : [id];
    for (const each of ids) {
      const timer = removals.get(each);
      if (timer !== undefined) cancel(timer);
      removals.delete(each);
    }
    emit(id === undefined ? [] : toasts.filter((toast) => toast.id !== id));
  }

  function scheduleRemoval(id: string) {
    if (removals.has(id)) return;
    removals.set(
      id,
      schedule(() => remove(id), TOAST_REMOVE_DELAY_MS),
    );
  }

  return {
    get: (): Toast[] => toasts,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Adds a toast at the front and returns its id. */
    add(input: ToastInput): string {
      counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
      const id = String(counter);
      const kept = [{ ...input, id, open: true }, ...toasts];
      for (const dropped of kept.slice(TOAST_LIMIT)) {
        const timer = removals.get(dropped.id);
        if (timer !== undefined) cancel(timer);
        removals.delete(dropped.id);
      }
      emit(kept.slice(0, TOAST_LIMIT));
      return id;
    },
    update(id: string, patch: Partial<ToastInput>): void {
      emit(toasts.map((toast) => (toast.id === id ? { ...toast, ...patch, id, open: toast.open } : toast)));
    },
    /** Closes one toast (or all) and schedules its removal. */
    dismiss(id?: string): void {
      for (const toast of toasts) if (id === undefined || toast.id === id) scheduleRemoval(toast.id);
      emit(toasts.map((toast) => (id === undefined || toast.id === id ? { ...toast, open: false } : toast)));
    },
    remove,
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The site's toast store. */
export const toasts = createToastStore();

export function toast(input: ToastInput): string {
  return toasts.add(input);
}

export function useToasts(store: ToastStore = toasts): Toast[] {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
