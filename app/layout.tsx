import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import AppShell from '@/components/shell/AppShell';
import { siteMetadata } from '@/lib/site/metadata';
import { REFERRER_POLICY } from '@/deploy/headers/policy';
import './globals.css';

// The header (deploy/headers) sets the same policy for every response; the meta tag keeps it on a
// host that serves out/ without our headers, so a login redirect's token never leaves in a Referer.
export const metadata: Metadata = { ...siteMetadata, referrer: REFERRER_POLICY };

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
    <html lang="de">
      <body>
        <AppShell>{children}</AppShell>
      </body>
    </html>
  );
}
