'use client';

import { useSyncExternalStore } from 'react';
import AdminNote from '@/components/screens/AdminNote';
import PageNotFound from '@/components/screens/PageNotFound';
import { useAuth } from '@/lib/auth/auth-store';

const subscribeNever = () => () => {};

/** The requested page name, from the address bar (unknown while prerendering 404.html). */
function readRequestedPageName(): string | null {
  const path = window.location.pathname.replace(/^\/+|\/+$/g, '');
  if (!path) return null;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export default function NotFoundRoute() {
  const pageName = useSyncExternalStore(subscribeNever, readRequestedPageName, () => null);
  const { isAdmin } = useAuth();
  return <PageNotFound pageName={pageName} adminNote={isAdmin ? <AdminNote /> : null} />;
}
