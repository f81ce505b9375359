import type { Metadata } from 'next';

import NotFoundRoute from '@/components/shell/NotFoundRoute';
import { NOT_FOUND_TITLE } from '@/lib/site/missing-page';

// No `noindex` here: hosts that answer unknown paths with this page send status 404, which already
// keeps them out of search indexes, and the page itself (also reachable as /404.html) stays
// crawlable. Where a host answers with index.html and 200 instead, MissingPageScreen shows this
// screen with `noindex`.
export const metadata: Metadata = {
  title: NOT_FOUND_TITLE,
};

export default function NotFound() {
  return <NotFoundRoute />;
}
