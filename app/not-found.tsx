import type { Metadata } from 'next';

import NotFoundRoute from '@/components/shell/NotFoundRoute';

// No `noindex`: hosts answer unknown paths with status 404, which already keeps them out of search
// indexes, and the page itself (also reachable as /404.html) stays crawlable.
export const metadata: Metadata = {
  title: 'Seite nicht gefunden (404)',
};

export default function NotFound() {
  return <NotFoundRoute />;
}
