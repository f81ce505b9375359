'use client';

import { useEffect } from 'react';

import { startAuth } from '@/lib/shell/start-auth';

import FrameBridgeLoader from './FrameBridgeLoader';
import MissingPageScreen from './MissingPageScreen';
import NavigationTracker from './NavigationTracker';
import Toaster from './Toaster';

let started = false;

/** Starts the auth flow once per page load (React may run effects twice in development). */
function startOnce(): void {
  if (started) return;
  started = true;
  startAuth();
}

/**
 * The shell's runtime. Loaded after hydration (AppShell), so none of it is in the visitor's first-load
 * JavaScript; the platform client, which a visitor without a token rarely needs, is a chunk of its own
 * (lib/shell/start-auth.ts).
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
