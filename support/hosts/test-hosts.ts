/**
 * The header-less hosts the browser suites run the site on (tests/e2e/hosts, tests/cross-engine):
 * fixed ports, because the local platform lets a site call it and log in only from origins it was
 * told at start (support/site-servers.ts passes these to it, and nothing wider).
 */
import { startNotFoundOnlyHost } from './not-found-only';
import { startSpaOnlyHost } from './spa-only';
import type { RunningHost } from './types';

export interface TestHost {
  /** The export it serves: the production build or the editor preview. */
  outDir: 'out' | 'out-preview';
  port: number;
  start(options: { outDir: string; port?: number }): Promise<RunningHost>;
}

export const HEADER_LESS_HOSTS = {
  /** Base44 hosting: `out/` as `npx base44 site deploy` publishes it. */
  spaOnly: { outDir: 'out', port: 3301, start: startSpaOnlyHost },
  /** GitHub Pages: `out/`, 404.html for the rest. */
  notFoundOnly: { outDir: 'out', port: 3302, start: startNotFoundOnlyHost },
  /** The editor preview on Base44 hosting, for the frame tests (its editor allowlist is the stand-in editor). */
  spaOnlyPreview: { outDir: 'out-preview', port: 3303, start: startSpaOnlyHost },
} as const satisfies Record<string, TestHost>;

export type HeaderLessHostName = keyof typeof HEADER_LESS_HOSTS;

export function hostOrigin(name: HeaderLessHostName): string {
  return `http://127.0.0.1:${HEADER_LESS_HOSTS[name].port}`;
}

/** Starts all of them on the exports under the repository root `root`; each stops with its `stop()`. */
export async function startHeaderLessHosts(root: string): Promise<Record<HeaderLessHostName, RunningHost>> {
  const entries = await Promise.all(
    (Object.entries(HEADER_LESS_HOSTS) as Array<[HeaderLessHostName, TestHost]>).map(
      async ([name, host]) => [name, await host.start({ outDir: `${root}/${host.outDir}`, port: host.port })] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<HeaderLessHostName, RunningHost>;
}
