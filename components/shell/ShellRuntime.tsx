'use client';

import { useEffect } from 'react';

import { createAuthFlow } from '@/lib/auth/auth-flow';
import { authStore } from '@/lib/auth/auth-store';
import { getPlatformClient } from '@/lib/shell/platform';

import FrameBridgeLoader from './FrameBridgeLoader';
import MissingPageScreen from './MissingPageScreen';
import NavigationTracker from './NavigationTracker';
import Toaster from './Toaster';

let started = false;

/** Starts the auth flow once per page load (React may run effects twice in development). */
function startOnce(): void {
  if (started) return;
  started = true;
  const flow = createAuthFlow(getPlatformClient());
  authStore.provideActions(flow);
  void flow.checkAppState();
}

/**
 * Everything of the shell that needs the platform client. Loaded after hydration (next/dynamic,
 * no SSR), so the SDK is not part of the visitor's first-load JavaScript.
 */
export default function ShellRuntime() {
  useEffect(startOnce, []);
  return (
    <>
      <NavigationTracker />
      <Toaster />
      <FrameBridgeLoader />
      <MissingPageScreen />
    </>
  );
}
