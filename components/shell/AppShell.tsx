'use client';

import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';

import { whenIdle } from '@/lib/shell/main-thread';

import Gate from './Gate';

// Everything that needs the platform client, fetched once the page has hydrated: the SDK is not part
// of the visitor's first-load JavaScript, and nothing of it is prerendered. A failed load reaches the
// error boundary, as any render error does.
const ShellRuntime = lazy(() => import('./ShellRuntime'));

/**
 * False while prerendering and hydrating; true once the browser is idle after hydration. Not at the
 * first render after hydration: that render runs synchronously in the task that hydrates, which it
 * lengthened by the lazy chunk's loading and the runtime's first render. In a transition, React
 * renders the runtime in slices that let input through.
 */
function useRuntimeStarted(): boolean {
  const [started, setStarted] = useState(false);
  useEffect(() => whenIdle(() => startTransition(() => setStarted(true))), []);
  return started;
}

/** The client boundary around every page: the auth gate now, the platform runtime once idle after hydration. */
export default function AppShell({ children }: { children: ReactNode }) {
  const runtimeStarted = useRuntimeStarted();
  return (
    <>
      <Gate>{children}</Gate>
      {runtimeStarted ? (
        <Suspense fallback={null}>
          <ShellRuntime />
        </Suspense>
      ) : null}
    </>
  );
}
