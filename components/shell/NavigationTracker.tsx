'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';

import { useAuth } from '@/lib/auth/auth-store';
import { getPlatformClient } from '@/lib/shell/platform';
import { pageForPath } from '@/lib/site/page-for-path';

/**
 * Logs a page visit for signed-in users: once per visit of a registered page (a navigation to it),
 * never again for re-renders or auth refreshes on the same visit. Failures are silent: logging must
 * never disturb the visitor.
 */
export default function NavigationTracker() {
  const pathname = usePathname();
  const { isAuthenticated } = useAuth();
  const lastVisit = useRef<string | null>(null);

  useEffect(() => {
    if (!isAuthenticated || lastVisit.current === pathname) return;
    lastVisit.current = pathname;
    const page = pageForPath(pathname);
    if (!page) return;
    getPlatformClient()
      .appLogs.logUserInApp(page)
      .catch(() => {});
  }, [pathname, isAuthenticated]);

  return null;
}
