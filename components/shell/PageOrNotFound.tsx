import type { ReactNode } from 'react';

import MissingPageFallback from './MissingPageFallback';
import MissingPageGuard from './MissingPageGuard';

/**
 * Around every registered page (app/page.tsx, app/[pageName]/page.tsx): the guard and the static 404
 * screen for an address that names no page, before the page itself (the stylesheet hides what follows
 * the 404 screen while it shows).
 */
export default function PageOrNotFound({ children }: { children: ReactNode }) {
  return (
    <>
      <MissingPageGuard />
      <MissingPageFallback />
      {children}
    </>
  );
}
