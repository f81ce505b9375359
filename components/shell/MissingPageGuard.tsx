'use client';

import { notFound, usePathname } from 'next/navigation';
import { useLayoutEffect, useSyncExternalStore } from 'react';

import { isExportedPagePath } from '@/lib/site/exported-paths';
import { clearMissingPageMarks } from '@/lib/site/missing-page';
import { pageNames } from '@/lib/site/page-names';

const subscribeNever = () => () => {};

/**
 * Shows the 404 screen when a page's HTML is served at an address that names no page, as SPA-only
 * hosts (Base44 hosting) do for every unknown path. Before hydration EarlyHead's check already shows
 * the static 404 screen (MissingPageFallback); once hydrated this calls Next's `notFound()`, so the
 * app's own not-found screen (naming the page, the admin note, `noindex`) replaces the page. Renders
 * the same as the server while hydrating (no mismatch), and clears the early marks when the address
 * names a page (after Go Home, say).
 */
export default function MissingPageGuard(): null {
  const pathname = usePathname();
  const hydrated = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  const isPage = isExportedPagePath(pathname, pageNames);
  useLayoutEffect(() => {
    if (isPage) clearMissingPageMarks(document);
  }, [isPage]);
  if (hydrated && !isPage) notFound();
  return null;
}
