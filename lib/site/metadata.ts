import type { Metadata } from 'next';

import { readBuildEnv } from '@/lib/config/env';

export const SITE_TITLE = 'Bald verfügbar – Unsere neue Website';
export const SITE_DESCRIPTION =
  'Unsere neue Website ist fast startklar. Wir freuen uns darauf, Ihnen schon bald unseren neuen digitalen Auftritt zu präsentieren.';

/** Where the site is deployed, for absolute Open Graph URLs; optional at build time. */
function siteUrl(): URL | undefined {
  const raw = readBuildEnv().siteUrl;
  if (!raw) return undefined;
  try {
    return new URL(raw);
  } catch {
    throw new Error(`NEXT_PUBLIC_SITE_URL is not an absolute URL: ${raw}`);
  }
}

export const siteMetadata: Metadata = {
  metadataBase: siteUrl(),
  title: SITE_TITLE,
  description: SITE_DESCRIPTION,
  applicationName: 'Unsere neue Website',
  openGraph: {
    type: 'website',
    locale: 'de_DE',
    title: SITE_TITLE,
    description: SITE_DESCRIPTION,
    siteName: 'Unsere neue Website',
  },
  twitter: { card: 'summary', title: SITE_TITLE, description: SITE_DESCRIPTION },
  robots: { index: true, follow: true },
  formatDetection: { telephone: false },
};
