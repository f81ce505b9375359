import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';

import AppShell from '@/components/shell/AppShell';
import EarlyHead from '@/components/shell/EarlyHead';
import { FIRST_SCREEN_END_ID } from '@/lib/site/first-screen';
import { siteMetadata } from '@/lib/site/metadata';

import './globals.css';

export const metadata: Metadata = siteMetadata;

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#fafaf9' },
    { media: '(prefers-color-scheme: dark)', color: '#0c0a09' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // EarlyHead's script marks <html> before hydration (data-missing-page, data-frame-guard, inert).
    <html lang="de" suppressHydrationWarning>
      <head>
        <EarlyHead />
        {/* A browser that parses slowly may paint a half-parsed page, and the vertically centred copy
            then jumps as its last paragraphs arrive (a layout shift). Chromium holds the first paint
            until the marker after the page's content is parsed; other engines ignore the hint. */}
        <link rel="expect" href={`#${FIRST_SCREEN_END_ID}`} blocking="render" />
      </head>
      <body>
        <AppShell>{children}</AppShell>
        <div id={FIRST_SCREEN_END_ID} hidden />
      </body>
    </html>
  );
}
