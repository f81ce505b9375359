'use client';

import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';

import Gate from './Gate';

// Everything that needs the platform client, fetched once the page has hydrated: the SDK is not part
// of the visitor's first-load JavaScript, and nothing of it is prerendered. A failed load reaches the
// error boundary, as any render error does.
const ShellRuntime = lazy(() => import('./ShellRuntime'));

const subscribeNever = () => () => {};

/** The client boundary around every page: the auth gate now, the platform runtime after hydration. */
export default function AppShell({ children }: { children: ReactNode }) {
  // False while prerendering and hydrating, true from the first render after hydration.
  const hydrated = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  return (
    <>
      <Gate>{children}</Gate>
      {hydrated ? (
        <Suspense fallback={null}>
          <ShellRuntime />
        </Suspense>
      ) : null}
    </>
  );
}
