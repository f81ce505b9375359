'use client';

import { useLayoutEffect, useSyncExternalStore } from 'react';

import NotFoundSentence from '@/components/screens/NotFoundSentence';
import {
  MISSING_PAGE_ATTRIBUTE,
  NOT_FOUND_TITLE,
  removeStaticNotFound,
  setNotFoundTitle,
} from '@/lib/site/missing-page';
import { requestedPageName } from '@/lib/site/requested-page-name';

const subscribeNever = () => () => {};

/** The requested page name, from the address bar (unknown while prerendering 404.html). */
const readRequestedPageName = () => requestedPageName(window.location.pathname);

/**
 * The part of the 404 screen that needs the address bar: names the requested page. Where a page's
 * HTML was served (MissingPageGuard), this screen takes over from the static one the early script
 * showed, and the page's own title would still be the page's (lib/site/missing-page.ts).
 */
export default function RequestedPage() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  useLayoutEffect(() => {
    setNotFoundTitle(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
    removeStaticNotFound(document);
  }, []);
  return <NotFoundSentence pageName={pageName} />;
}
