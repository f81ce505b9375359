'use client';

import { useSyncExternalStore } from 'react';

import AdminNote from '@/components/screens/AdminNote';
import PageNotFound from '@/components/screens/PageNotFound';
import { useAuth } from '@/lib/auth/auth-store';
import { requestedPageName } from '@/lib/site/requested-page-name';

const subscribeNever = () => () => {};

/** The requested page name, from the address bar (unknown while prerendering 404.html). */
const readRequestedPageName = () => requestedPageName(window.location.pathname);

export default function NotFoundRoute() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  const { isAdmin } = useAuth();
  return <PageNotFound pageName={pageName} adminNote={isAdmin ? <AdminNote /> : null} />;
}
