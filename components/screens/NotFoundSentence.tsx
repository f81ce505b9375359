import { Fragment } from 'react';

/** What the 404 screen says could not be found: the requested page by name when known. */
export default function NotFoundSentence({ pageName }: { pageName?: string | null }) {
  // Keyed, so that React replaces the general sentence when the name arrives after hydration instead
  // of rewriting its text node in place, which browsers count as a (tiny) layout shift.
  return pageName ? (
    <Fragment key="named">
      The page <span className="font-medium text-stone-900 dark:text-stone-100">“{pageName}”</span> could not be found
      in this application.
    </Fragment>
  ) : (
    'The page you requested could not be found in this application.'
  );
}
