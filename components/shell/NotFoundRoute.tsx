'use client';

import { useLayoutEffect, useSyncExternalStore } from 'react';

import AdminNote from '@/components/screens/AdminNote';
import PageNotFound from '@/components/screens/PageNotFound';
import { useAuth } from '@/lib/auth/auth-store';
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

export default function NotFoundRoute() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  const { isAdmin } = useAuth();
  // Where a page's HTML was served (MissingPageGuard), this screen takes over from the static one the
  // early script showed, and the page's own title would still be the page's (lib/site/missing-page.ts).
  useLayoutEffect(() => {
    setNotFoundTitle(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
    removeStaticNotFound(document);
  }, []);
  return <PageNotFound pageName={pageName} adminNote={isAdmin ? <AdminNote /> : null} />;
}
