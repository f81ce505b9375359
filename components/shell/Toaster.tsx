'use client';

import { toasts as siteToasts, useToasts, type ToastStore } from '@/lib/toast/store';

/** Renders open toasts in a polite live region, newest first. */
export default function Toaster({ store = siteToasts }: { store?: ToastStore }) {
  const open = useToasts(store).filter((toast) => toast.open);
  return (
    <section
      aria-live="polite"
      aria-label="Benachrichtigungen"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-center gap-2 p-4 sm:items-end"
    >
      {open.map((toast) => (
        <div
          key={toast.id}
          role={toast.variant === 'destructive' ? 'alert' : 'status'}
          className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg ${
            toast.variant === 'destructive'
              ? 'border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50'
              : 'border-stone-200 bg-white text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-50'
          }`}
        >
          <div className="min-w-0 flex-1">
            {toast.title ? <p className="font-medium">{toast.title}</p> : null}
            {toast.description ? <p className="mt-1 text-sm opacity-90">{toast.description}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => store.dismiss(toast.id)}
            className="rounded-md px-2 text-lg leading-none opacity-70 hover:opacity-100"
            aria-label="Benachrichtigung schließen"
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
