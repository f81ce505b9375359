'use client';

import { useEffect } from 'react';

import ErrorFallback from '@/components/screens/ErrorFallback';

/** Route error boundary: a readable fallback instead of a blank page. */
export default function RouteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    // React only logs errors it caught; report it like an uncaught one so the editor bridge (when
    // framed) forwards it too.
    if (typeof window.reportError === 'function') window.reportError(error);
  }, [error]);
  return <ErrorFallback onRetry={reset} />;
}
