'use client';

import ErrorFallback from '@/components/screens/ErrorFallback';

import './globals.css';

/** Replaces the root layout when the layout itself fails to render. */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="de">
      <body>
        <ErrorFallback onRetry={reset} />
      </body>
    </html>
  );
}
