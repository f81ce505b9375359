'use client';

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';

import LoadingScreen from '@/components/screens/LoadingScreen';
import { useAuth } from '@/lib/auth/auth-store';

// Only the platform's answer (after hydration, through the lazily loaded runtime) can call for these
// screens, so they load when called for, not with the page. The spinner covers the page meanwhile.
const AccessRestricted = lazy(() => import('@/components/screens/AccessRestricted'));
const SignInRequired = lazy(() => import('@/components/screens/SignInRequired'));

/**
 * The spinner waits this long, counted from when the runtime starts asking the platform, before
 * covering the page: a platform that answers quickly never replaces the prerendered content with a
 * flash of spinner, however late the browser found time to start the runtime.
 */
export const SPINNER_DELAY_MS = 300;

function useDelayedFlag(active: boolean, delayMs: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setElapsed(true), delayMs);
    return () => {
      clearTimeout(timer);
      setElapsed(false);
    };
  }, [active, delayMs]);
  return active && elapsed;
}

/**
 * Decides what the visitor sees from the auth state. The page's own content stays mounted while
 * loading (the spinner is a fixed overlay), so nothing shifts when the state resolves.
 */
export default function Gate({ children }: { children: ReactNode }) {
  const { state, loginRedirectBlocked, checking, navigateToLogin } = useAuth();
  const redirecting = state.status === 'error' && state.error.type === 'auth_required' && !loginRedirectBlocked;
  const showSpinner = useDelayedFlag(state.status === 'loading' && checking, SPINNER_DELAY_MS);

  if (state.status === 'error' && state.error.type === 'user_not_registered') {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <AccessRestricted />
      </Suspense>
    );
  }
  if (state.status === 'error' && state.error.type === 'auth_required' && loginRedirectBlocked) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <SignInRequired onSignIn={navigateToLogin} />
      </Suspense>
    );
  }
  return (
    <>
      {children}
      {redirecting ? <LoadingScreen label="Weiterleitung zur Anmeldung" /> : showSpinner ? <LoadingScreen /> : null}
    </>
  );
}
