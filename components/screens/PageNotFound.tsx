import Link from 'next/link';
import type { ReactNode } from 'react';

export interface PageNotFoundProps {
  /** The requested page name, when known (it is only known in the browser, not when prerendering). */
  pageName?: string | null;
  /** Extra content for admins (filled by the auth shell). */
  adminNote?: ReactNode;
}

/** The 404 screen: a large 404, what could not be found, and a way home. */
export default function PageNotFound({ pageName, adminNote }: PageNotFoundProps) {
  return (
    <main lang="en" className="flex min-h-dvh items-center justify-center px-6 py-16">
      <section aria-labelledby="not-found-title" className="w-full max-w-md text-center">
        <p
          aria-hidden="true"
          className="text-8xl font-light tracking-tight text-stone-500 tabular-nums dark:text-stone-400"
        >
          404
        </p>
        <div aria-hidden="true" className="mx-auto mt-4 h-0.5 w-16 bg-stone-300 dark:bg-stone-700" />
        <h1 id="not-found-title" className="mt-6 text-2xl font-semibold tracking-tight">
          Page Not Found
        </h1>
        {/* Reserve two lines so the sentence does not move the button when the name arrives. */}
        <p className="mt-4 min-h-14 leading-7 break-words text-stone-700 dark:text-stone-300">
          {pageName ? (
            <>
              The page <span className="font-medium text-stone-900 dark:text-stone-100">“{pageName}”</span> could not be
              found in this application.
            </>
          ) : (
            'The page you requested could not be found in this application.'
          )}
        </p>
        {adminNote ? <div className="mt-6">{adminNote}</div> : null}
        <Link
          href="/"
          className="mt-8 inline-flex items-center justify-center rounded-lg bg-stone-900 px-5 py-2.5 text-sm font-medium text-white shadow-sm transition-colors hover:bg-stone-700 dark:bg-stone-100 dark:text-stone-900 dark:hover:bg-stone-300"
        >
          Go Home
        </Link>
      </section>
    </main>
  );
}
