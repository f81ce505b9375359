/** @type {import('next').NextConfig} */
const nextConfig = {
  // A static export: every page is prerendered HTML that any static host or CDN can serve.
  output: 'export',
  // `/ComingSoon` is emitted as `ComingSoon.html`; the preview server and host configs map it.
  trailingSlash: false,
  reactStrictMode: true,
  poweredByHeader: false,
  images: { unoptimized: true },
  // `npm test` type-checks the whole repository (tsc --noEmit) as its own step; checking again in
  // every build would double the build time for no extra safety.
  typescript: { ignoreBuildErrors: true },
  // ofetch and its helpers are ESM only; Jest (through next/jest) needs them transpiled.
  transpilePackages: ['ofetch'],
  // Keep a preview build (with source annotations for the editor) apart from the production export.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
