import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';

import AppShell from '@/components/shell/AppShell';
import EarlyHead from '@/components/shell/EarlyHead';
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
      </head>
      <body>
        <AppShell>{children}</AppShell>
      </body>
    </html>
  );
}
