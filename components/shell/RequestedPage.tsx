'use client';

import { useLayoutEffect, useSyncExternalStore } from 'react';

import NotFoundSentence from '@/components/screens/NotFoundSentence';
import { markMissingPage, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE } from '@/lib/site/missing-page';
import { requestedPageName } from '@/lib/site/requested-page-name';

const subscribeNever = () => () => {};

/** The requested page name, from the address bar (unknown while prerendering 404.html). */
const readRequestedPageName = () => requestedPageName(window.location.pathname);

/**
 * The part of the 404 screen that needs the address bar: names the requested page, and marks the
 * document as showing no page (title, `data-missing-page`), also where a page's HTML was served
 * (MissingPageGuard): its own title would still be the page's.
 */
export default function RequestedPage() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  useLayoutEffect(() => markMissingPage(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE), []);
  return <NotFoundSentence pageName={pageName} />;
}
