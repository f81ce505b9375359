import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.dirname(fileURLToPath(import.meta.url));

// Editor source annotations (build-steps/source-annotations): `data-source-location` on the JSX elements of
// app/ and components/, in `next dev` and in the editor preview build only; production has none.
const sourceAnnotations = process.env.NODE_ENV === 'development' || process.env.NEXT_PUBLIC_SOURCE_ANNOTATIONS === '1';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A static export: every page is prerendered HTML that any static host or CDN can serve. Not in
  // `next dev`: there, export mode answers an unknown page name with a 500 ("missing param in
  // generateStaticParams") instead of the 404 screen a static host shows for it.
  output: process.env.NODE_ENV === 'development' ? undefined : 'export',
  // `/ComingSoon` is emitted as `ComingSoon.html`; the preview server and host configs map it.
  trailingSlash: false,
  reactStrictMode: true,
  // No `experimental.inlineCss`: it put the whole stylesheet into every page three times (a
  // `<style>`, and twice more as text in the React payload, for the layout and for global-error),
  // which tripled the HTML and what the browser parses before the first paint. The stylesheet is a
  // `<link>` instead: one small request, cached across pages and visits (docs/PERFORMANCE.md).
  poweredByHeader: false,
  images: { unoptimized: true },
  // `npm test` type-checks the whole repository (tsc --noEmit) as its own step; checking again in
  // every build would double the build time for no extra safety.
  typescript: { ignoreBuildErrors: true },
  // Keep a preview build (with source annotations for the editor) apart from the production export.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  turbopack: {
    rules: sourceAnnotations
      ? {
          '*.tsx': {
            condition: { all: [{ not: 'foreign' }, { path: /^(app|components)\// }] },
            loaders: [
              {
                loader: path.join(projectRoot, 'build-steps/source-annotations/loader.cjs'),
                options: { root: projectRoot },
              },
            ],
            // No `as`: the output is still TSX and keeps the file's own name and module type.
          },
        }
      : {},
  },
};

export default nextConfig;
