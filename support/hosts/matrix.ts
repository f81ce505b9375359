/**
 * The host matrix (`npm test`'s "host matrix" step, tests/playwright/hosts.config.ts): every host
 * the site is tested on, each serving the production export and the editor preview on fixed ports
 * (the local platform lets a site call it and log in only from origins it was told at start). The
 * model is the server of `npm start` itself (support/site-servers.ts); tests/hosts/global-setup.ts
 * starts the others once for the whole run.
 */
import { startApacheHost } from './apache';
import { startCaddyHost } from './caddy';
import { startCloudflareHost } from './cloudflare';
import { startNginxHost } from './nginx';
import { startServeHost, startSuperstaticHost } from './node-servers';
import { startNotFoundOnlyHost } from './not-found-only';
import { HEADER_LESS_HOSTS } from './test-hosts';
import type { RunningHost } from './types';

export type MatrixHostId =
  | 'model'
  | 'nginx'
  | 'cloudflare'
  | 'apache'
  | 'apache-htaccess'
  | 'caddy'
  | 'firebase'
  | 'vercel'
  | 'spa-only'
  | 'github-pages'
  | 's3';

type StartHost = (options: { outDir: string; port?: number }) => Promise<RunningHost>;

interface Served {
  port: number;
  /** Omitted for what the suite's web servers already serve (the model). */
  start?: StartHost;
}

export interface MatrixHost {
  id: MatrixHostId;
  /** What it stands for, as docs/DEPLOY.md names it. */
  title: string;
  /** `out/`, the production export. */
  site: Served;
  /** `out-preview/`, the editor preview, for the editor handshake; none where no editor is framed. */
  preview: Served | null;
  /**
   * Which visitor flows run on it (tests/hosts/flows.spec.ts): `every` flow, or only the flows whose
   * outcome depends on what the host answers (`host`: its pages, 404 answers, crafted paths, the
   * token's way through its answers, the framed preview, all under its headers), or `none`: not on
   * S3 (no extensionless pages) nor on Apache's `.htaccess` set-up, which tests/hosts/servers.spec.ts
   * compares with the snippet's answers request by request.
   */
  flows: FlowSet;
}

/**
 * `host` is for servers we configure the way a host already in the matrix answers: Apache and Caddy
 * redirect a page's other addresses with the query as Cloudflare Pages does, superstatic and `serve`
 * serve them with no redirect as nginx does. What the other flows add (the admin note, the login
 * round trip, Access Restricted) is the page and the platform talking once the page runs under the
 * host's policy, which the `host` flows already prove on that host (a platform call with the token).
 */
export type FlowSet = 'every' | 'host' | 'none';

export const MATRIX_HOSTS: readonly MatrixHost[] = [
  { id: 'model', title: 'our model (npm start)', site: { port: 3000 }, preview: { port: 3100 }, flows: 'every' },
  {
    id: 'nginx',
    title: 'nginx with the generated snippet',
    site: { port: 3311, start: startNginxHost },
    preview: { port: 3312, start: startNginxHost },
    flows: 'every',
  },
  {
    id: 'cloudflare',
    title: 'Cloudflare Pages (wrangler pages dev on workerd)',
    site: { port: 3321, start: startCloudflareHost },
    preview: { port: 3322, start: startCloudflareHost },
    flows: 'every',
  },
  {
    id: 'apache',
    title: "Debian's Apache with the generated snippet",
    site: { port: 3331, start: startApacheHost },
    preview: { port: 3332, start: startApacheHost },
    flows: 'host',
  },
  {
    id: 'apache-htaccess',
    title: "Debian's Apache with out/.htaccess (AllowOverride All)",
    site: { port: 3333, start: (options) => startApacheHost({ ...options, setup: 'htaccess' }) },
    preview: null,
    flows: 'none',
  },
  {
    id: 'caddy',
    title: "Debian's Caddy with the generated snippet",
    site: { port: 3341, start: startCaddyHost },
    preview: { port: 3342, start: startCaddyHost },
    flows: 'host',
  },
  {
    id: 'firebase',
    title: "Firebase Hosting's engine (superstatic) with out/firebase.json",
    site: { port: 3351, start: startSuperstaticHost },
    preview: { port: 3352, start: startSuperstaticHost },
    flows: 'host',
  },
  {
    id: 'vercel',
    title: "Vercel's static server (serve) with out/serve.json",
    site: { port: 3361, start: startServeHost },
    preview: { port: 3362, start: startServeHost },
    flows: 'host',
  },
  {
    id: 'spa-only',
    title: 'Base44 hosting (SPA only, no headers)',
    site: HEADER_LESS_HOSTS.spaOnly,
    preview: HEADER_LESS_HOSTS.spaOnlyPreview,
    flows: 'every',
  },
  {
    id: 'github-pages',
    title: 'GitHub Pages (404.html, no headers)',
    site: HEADER_LESS_HOSTS.notFoundOnly,
    preview: { port: 3305, start: startNotFoundOnlyHost },
    flows: 'every',
  },
  {
    id: 's3',
    title: 'S3 website endpoint (404.html, no headers, no extensionless pages)',
    site: { port: 3304, start: (options) => startNotFoundOnlyHost({ ...options, variant: 's3' }) },
    preview: null,
    flows: 'none',
  },
];

export function matrixHost(id: MatrixHostId): MatrixHost {
  const host = MATRIX_HOSTS.find((candidate) => candidate.id === id);
  if (!host) throw new Error(`no host ${id} in the matrix`);
  return host;
}

const origin = (served: Served) => `http://127.0.0.1:${served.port}`;

/** The origins of a host's two exports (the preview's is null when it serves none). */
export function matrixUrls(id: MatrixHostId): { site: string; preview: string | null } {
  const host = matrixHost(id);
  return { site: origin(host.site), preview: host.preview ? origin(host.preview) : null };
}

/** Every origin of the matrix, for the local platform (EMULATOR_EXTRA_SITE_ORIGINS). */
export const MATRIX_ORIGINS = MATRIX_HOSTS.flatMap((host) =>
  [host.site, host.preview].filter((served): served is Served => served !== null).map(origin),
);

/**
 * Starts every host the web servers do not serve, on the exports under `root`, all at once (wrangler
 * takes seconds to start); when one fails, the others are stopped and the error says which.
 */
export async function startMatrixHosts(root: string): Promise<RunningHost[]> {
  const wanted = MATRIX_HOSTS.flatMap((host) =>
    (
      [
        [host.site, 'out'],
        [host.preview, 'out-preview'],
      ] as const
    )
      .filter(([served]) => served?.start)
      .map(([served, outDir]) => ({ host, served: served as Served, outDir })),
  );
  const started = await Promise.allSettled(
    wanted.map(({ served, outDir }) => (served.start as StartHost)({ outDir: `${root}/${outDir}`, port: served.port })),
  );
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.flatMap((result, index) =>
    result.status === 'rejected' ? [`${wanted[index]?.host.title}: ${String(result.reason)}`] : [],
  );
  if (failed.length > 0) {
    await Promise.all(running.map((host) => host.stop()));
    throw new Error(`The host matrix cannot start:\n${failed.join('\n')}`);
  }
  return running;
}
