'use client';

import { usePathname } from 'next/navigation';
import { useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';

import { isExportedPagePath } from '@/lib/site/exported-paths';
import { clearMissingPageMarks, MISSING_PAGE_ATTRIBUTE, showAppNotFound } from '@/lib/site/missing-page';
import { pageNames } from '@/lib/site/page-names';

import NotFoundRoute from './NotFoundRoute';

/**
 * Where a page's HTML was served at an address that names no page (SPA-only hosts such as Base44
 * hosting answer every path with index.html and 200), the early script showed the static 404 screen
 * in place of `<body>` (lib/site/missing-page.ts). Once the shell runs, this puts the app's own 404
 * screen there (naming the page, the admin note for admins, Go Home), with `noindex`, since the host
 * said 200; and when the address names a page again (Go Home, a back navigation) it clears the marks,
 * so `<body>`, which held the page all along, shows. Part of ShellRuntime's lazy chunk (none of it is
 * in the first load); on any other document it renders nothing.
 */
export default function MissingPageScreen() {
  // Read once: the mark goes when the address names a page again, the document stays what it was.
  const [servedAtMissingAddress] = useState(() => document.documentElement.hasAttribute(MISSING_PAGE_ATTRIBUTE));
  const [screen] = useState(() => document.createElement('div'));
  const pathname = usePathname();
  const namesPage = isExportedPagePath(pathname, pageNames);
  const missing = servedAtMissingAddress && !namesPage;
  useLayoutEffect(() => {
    if (missing) showAppNotFound(document, screen);
    // Not only where a page was served: the early script also gives 404.html, served at an unknown
    // address, its 404 title, which would stay the title after Go Home.
    else if (namesPage) clearMissingPageMarks(document);
  }, [missing, namesPage, screen]);
  if (!missing) return null;
  return createPortal(
    <>
      <meta name="robots" content="noindex" />
      <NotFoundRoute />
    </>,
    screen,
  );
}
