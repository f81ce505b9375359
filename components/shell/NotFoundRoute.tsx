'use client';

import { useLayoutEffect, useSyncExternalStore } from 'react';

import AdminNote from '@/components/screens/AdminNote';
import PageNotFound from '@/components/screens/PageNotFound';
import { useAuth } from '@/lib/auth/auth-store';
import { markMissingPage, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE } from '@/lib/site/missing-page';
import { requestedPageName } from '@/lib/site/requested-page-name';

const subscribeNever = () => () => {};

/** The requested page name, from the address bar (unknown while prerendering 404.html). */
const readRequestedPageName = () => requestedPageName(window.location.pathname);

export default function NotFoundRoute() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  const { isAdmin } = useAuth();
  // Also where a page's HTML was served (MissingPageGuard): its own title would still be the page's.
  useLayoutEffect(() => markMissingPage(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE), []);
  return <PageNotFound pageName={pageName} adminNote={isAdmin ? <AdminNote /> : null} />;
}
