'use client';

import { useEffect } from 'react';

import { isDevelopmentBuild } from '@/lib/config/env';

/**
 * Starts the editor bridge (lib/frame) when, and only when, the site runs inside a frame.
 *
 * The bridge and the visual-edit agent are fetched with a dynamic import after that check, so a
 * visitor on the top-level page downloads nothing but this component. Renders nothing; takes no
 * props (the allowed editor origins are fixed at build time by NEXT_PUBLIC_EDITOR_ORIGINS).
 */
export default function FrameBridgeLoader(): null {
  useEffect(() => {
    // Comparing window proxies is allowed across origins; reading the parent's contents is not needed.
    if (window.self === window.top) return;
    let stopBridge: (() => void) | null = null;
    let unmounted = false;
    import('@/lib/frame/bridge')
      .then(({ startBridge }) => {
        if (unmounted) return;
        const bridge = startBridge();
        stopBridge = () => bridge.stop();
      })
      .catch((failure: unknown) => {
        // Without the bridge the site still works; the editor just cannot edit it. Nothing to tell
        // a visitor, so only developers hear about it.
        if (isDevelopmentBuild()) console.warn('[frame] the editor bridge failed to load', failure);
      });
    return () => {
      unmounted = true;
      stopBridge?.();
    };
  }, []);
  return null;
}
