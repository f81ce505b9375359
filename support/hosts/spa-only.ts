/**
 * Base44 hosting as its documentation describes it ("SPA only: … All routes are served from
 * index.html (client-side routing)"), which is where `npx base44 site deploy` publishes `out/`: a
 * file that exists is served as it is (a folder by its index.html), every other path (unknown pages,
 * `/ComingSoon` itself, missing assets, crafted paths) gets `index.html` with status 200, and no
 * response carries a header of ours: no CSP, no frame-ancestors, no Referrer-Policy, no caching rule
 * (the vendor CLI uploads `out/` as a tarball and nothing reads `_headers`, which is served as a file
 * like any other).
 */
import path from 'node:path';

import { fileUnder, startFileHost, type HostRules } from './file-host';
import type { RunningHost } from './types';

const spaOnlyRules: HostRules = async (root, request) => {
  const index = { file: path.join(root, 'index.html'), status: 200 } as const;
  if (!request.segments || request.segments.length === 0) return index;
  const file =
    (await fileUnder(root, request.segments)) ?? (await fileUnder(root, [...request.segments, 'index.html']));
  return file ? { file, status: 200 } : index;
};

export function startSpaOnlyHost(options: { outDir: string; port?: number }): Promise<RunningHost> {
  return startFileHost('spa-only', options, spaOnlyRules);
}
