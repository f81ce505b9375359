import AdminNote from '@/components/screens/AdminNote';
import PageNotFound from '@/components/screens/PageNotFound';

import AdminOnly from './AdminOnly';
import RequestedPage from './RequestedPage';

/**
 * The 404 route's screen. Its markup is rendered ahead (HTML in every page's payload); only the two
 * parts that depend on the browser run as client code: the requested page's name and the admin note.
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
