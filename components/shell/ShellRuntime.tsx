'use client';

import { useEffect } from 'react';

import { createAuthFlow } from '@/lib/auth/auth-flow';
import { authStore } from '@/lib/auth/auth-store';
import { nextTask } from '@/lib/shell/main-thread';
import { getPlatformClient } from '@/lib/shell/platform';

import FrameBridgeLoader from './FrameBridgeLoader';
import MissingPageScreen from './MissingPageScreen';
import NavigationTracker from './NavigationTracker';
import Toaster from './Toaster';

let started = false;

/**
 * Starts the auth flow once per page load (React may run effects twice in development). Making the
 * client and the first check are each a long piece of work on a slow phone, so they run as two tasks.
 */
function startOnce(): void {
  if (started) return;
  started = true;
  const flow = createAuthFlow(getPlatformClient());
  authStore.provideActions(flow);
  void nextTask().then(() => flow.checkAppState());
}

/**
 * Everything of the shell that needs the platform client. Loaded after hydration (AppShell), so the
 * SDK is not part of the visitor's first-load JavaScript.
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
