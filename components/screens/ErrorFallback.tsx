/** What a visitor sees instead of a blank page when rendering fails. */
export default function ErrorFallback({ onRetry }: { onRetry?: () => void }) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-6 py-16">
      <section aria-labelledby="error-title" role="alert" className="w-full max-w-md text-center">
        <h1 id="error-title" className="text-3xl font-semibold tracking-tight">
          Etwas ist schiefgelaufen
        </h1>
        <p className="mt-4 leading-7 text-stone-700 dark:text-stone-300">
          Beim Anzeigen dieser Seite ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut oder kehren Sie zur
          Startseite zurück.
        </p>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
          {onRetry ? (
            <button
              type="button"
              onClick={onRetry}
              className="inline-flex items-center justify-center rounded-lg bg-stone-900 px-5 py-2.5 text-sm font-medium text-white shadow-sm hover:bg-stone-700 dark:bg-stone-100 dark:text-stone-900 dark:hover:bg-stone-300"
            >
              Erneut versuchen
            </button>
          ) : null}
          {/* A plain link on purpose: a full page load recovers even when the client router is what broke. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a
            href="/"
            className="inline-flex items-center justify-center rounded-lg border border-stone-300 px-5 py-2.5 text-sm font-medium hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
          >
            Zur Startseite
          </a>
        </div>
      </section>
    </main>
  );
}
