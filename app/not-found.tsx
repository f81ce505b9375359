import type { Metadata } from 'next';

import NotFoundRoute from '@/components/shell/NotFoundRoute';
import { NOT_FOUND_TITLE } from '@/lib/site/missing-page';

// Kept out of search indexes by its own HTML: Next.js writes `<meta name="robots" content="noindex">`
// into the not-found page, and `robots: null` drops the layout's `index, follow`, so that tag is the
// only one. A status 404 says the same, but not every host sends it for this page (it is also
// reachable as /404.html, where static hosts answer 200). Where a host answers an unknown path with
// index.html and 200, MissingPageScreen shows this screen with `noindex`.
export const metadata: Metadata = {
  title: NOT_FOUND_TITLE,
  robots: null,
};

export default function NotFound() {
  return <NotFoundRoute />;
}
