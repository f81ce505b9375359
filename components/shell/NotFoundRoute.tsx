import AdminNote from '@/components/screens/AdminNote';
import PageNotFound from '@/components/screens/PageNotFound';

import AdminOnly from './AdminOnly';
import RequestedPage from './RequestedPage';

/**
 * The 404 screen of the app: the not-found route's (app/not-found.tsx), whose markup is rendered ahead
 * (HTML in every page's payload), with only the two parts that depend on the browser as client code
 * (the requested page's name, the admin note); and MissingPageScreen's, in the runtime's lazy chunk.
 */
export default function NotFoundRoute() {
  return (
    <PageNotFound
      sentence={<RequestedPage />}
      adminNote={
        <AdminOnly>
          <AdminNote />
        </AdminOnly>
      }
    />
  );
}
