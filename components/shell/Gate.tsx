'use client';

import { useEffect, useState, type ReactNode } from 'react';

import AccessRestricted from '@/components/screens/AccessRestricted';
import LoadingScreen from '@/components/screens/LoadingScreen';
import SignInRequired from '@/components/screens/SignInRequired';
import { useAuth } from '@/lib/auth/auth-store';

/**
 * The spinner waits this long before covering the page: a platform that answers quickly never
 * replaces the prerendered content with a flash of spinner.
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
  const { state, loginRedirectBlocked, navigateToLogin } = useAuth();
  const redirecting = state.status === 'error' && state.error.type === 'auth_required' && !loginRedirectBlocked;
  const showSpinner = useDelayedFlag(state.status === 'loading', SPINNER_DELAY_MS);

  if (state.status === 'error' && state.error.type === 'user_not_registered') return <AccessRestricted />;
  if (state.status === 'error' && state.error.type === 'auth_required' && loginRedirectBlocked) {
    return <SignInRequired onSignIn={navigateToLogin} />;
  }
  return (
    <>
      {children}
      {redirecting ? <LoadingScreen label="Weiterleitung zur Anmeldung" /> : showSpinner ? <LoadingScreen /> : null}
    </>
  );
}
