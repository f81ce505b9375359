'use client';

import { useRouter } from 'next/navigation';
import type { MouseEvent, ReactNode } from 'react';

/**
 * A link to `/` that, once hydrated, navigates inside the app as next/link does (the page, the
 * editor bridge and the auth state stay), at a fraction of next/link's first-load code: the app
 * router is loaded anyway. Before hydration, and for clicks that ask for a new tab or window, it is
 * the plain link it renders.
 */
export default function HomeLink({ className, children }: { className: string; children: ReactNode }) {
  const router = useRouter();
  function navigate(event: MouseEvent<HTMLAnchorElement>): void {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    router.push('/');
  }
  return (
    // eslint-disable-next-line @next/next/no-html-link-for-pages -- next/link's navigation, without its weight
    <a href="/" className={className} onClick={navigate}>
      {children}
    </a>
  );
}
