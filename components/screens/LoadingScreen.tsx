/**
 * Full-screen spinner shown while app settings or authentication load. The spinner only turns when
 * the visitor has not asked for reduced motion; otherwise it is a still ring with the same name.
 */
export default function LoadingScreen({ label = 'Seite wird geladen' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label={label}
      className="fixed inset-0 z-50 flex items-center justify-center bg-stone-50 dark:bg-stone-950"
    >
      <span
        aria-hidden="true"
        className="size-10 rounded-full border-4 border-stone-300 border-t-teal-600 motion-safe:animate-spin dark:border-stone-700 dark:border-t-teal-400"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
