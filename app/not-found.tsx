import type { Metadata } from 'next';
import NotFoundRoute from '@/components/shell/NotFoundRoute';

export const metadata: Metadata = {
  title: 'Seite nicht gefunden (404)',
  robots: { index: false, follow: false },
};

export default function NotFound() {
  return <NotFoundRoute />;
}
