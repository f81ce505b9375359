import type { ReactNode } from 'react';

import MissingPageGuard from './MissingPageGuard';

/**
 * Around every registered page (app/page.tsx, app/[pageName]/page.tsx): the page, or the 404 screen
 * where a host served this page's HTML at an address that names no page (MissingPageGuard).
 */
export default function PageOrNotFound({ children }: { children: ReactNode }) {
  return (
    <>
      <MissingPageGuard />
      {children}
    </>
  );
}
