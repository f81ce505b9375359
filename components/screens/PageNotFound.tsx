import type { ReactNode } from 'react';

import HomeLink from './HomeLink';
import NotFoundSentence from './NotFoundSentence';

export interface PageNotFoundProps {
  /**
   * What could not be found (default: the general sentence). The name of the requested page is only
   * known in the browser, not when prerendering: the 404 route fills this with a client component.
   */
  sentence?: ReactNode;
  /** Extra content for admins (filled by the auth shell). */
  adminNote?: ReactNode;
}

/**
 * The 404 screen: a large 404, what could not be found, and a way home. A server component: its
 * markup ships as HTML, not as first-load JavaScript; only the way home is client code (HomeLink).
 */
export default function PageNotFound({ sentence = <NotFoundSentence />, adminNote }: PageNotFoundProps) {
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
        <p className="mt-4 min-h-14 leading-7 break-words text-stone-700 dark:text-stone-300">{sentence}</p>
        {adminNote}
        <HomeLink className="mt-8 inline-flex items-center justify-center rounded-lg bg-stone-900 px-5 py-2.5 text-sm font-medium text-white shadow-sm transition-colors hover:bg-stone-700 dark:bg-stone-100 dark:text-stone-900 dark:hover:bg-stone-300">
          Go Home
        </HomeLink>
      </section>
    </main>
  );
}
