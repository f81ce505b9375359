'use client';

import { useSyncExternalStore } from 'react';

import NotFoundSentence from '@/components/screens/NotFoundSentence';
import { requestedPageName } from '@/lib/site/requested-page-name';

const subscribeNever = () => () => {};

/** The requested page name, from the address bar (unknown while prerendering 404.html). */
const readRequestedPageName = () => requestedPageName(window.location.pathname);

/** The part of the 404 screen that needs the address bar: names the requested page. */
export default function RequestedPage() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  return <NotFoundSentence pageName={pageName} />;
}
