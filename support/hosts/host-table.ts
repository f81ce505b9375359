/**
 * docs/DEPLOY.md's host table as data: what each host keeps and loses, and how it answers a page's
 * other addresses. docs/DEPLOY.md carries the table rendered from this (tests/unit/support/host-table.test.ts
 * keeps them equal) and the host matrix checks every cell on the host that stands for its column
 * (tests/hosts/host-table.spec.ts): check:host's verdict for the protection rows, the raw answer for
 * the path rows. Netlify has no runnable oracle here (`netlify dev` overrides every Cache-Control), so
 * its header cells rest on Netlify's own `_headers` parser and its other cells are not run.
 */
import { CHECKS, type HostCheckId } from '../../deploy/host-check/catalog';
import type { MatrixHostId } from './matrix';

export type DeployTarget =
  'base44' | 'cloudflare' | 'netlify' | 'nginx' | 'apache' | 'caddy' | 'firebase' | 'vercel' | 'github-pages' | 's3';

/**
 * Firebase Hosting's column is run on superstatic (its serving engine) with `out/firebase.json`,
 * Vercel's on `serve` (Vercel's static server) with `out/serve.json`; `out/vercel.json` says the same
 * for Vercel's platform, which does not run here.
 */
export const DEPLOY_TARGETS: Record<DeployTarget, { title: string; host: MatrixHostId | null }> = {
  base44: { title: 'Base44 hosting', host: 'spa-only' },
  cloudflare: { title: 'Cloudflare Pages', host: 'cloudflare' },
  netlify: { title: 'Netlify', host: null },
  nginx: { title: 'nginx + snippet', host: 'nginx' },
  apache: { title: 'Apache + snippet', host: 'apache' },
  caddy: { title: 'Caddy + snippet', host: 'caddy' },
  firebase: { title: 'Firebase Hosting', host: 'firebase' },
  vercel: { title: 'Vercel (`serve`)', host: 'vercel' },
  'github-pages': { title: 'GitHub Pages', host: 'github-pages' },
  s3: { title: 'S3 website', host: 's3' },
};

export const TARGET_ORDER = Object.keys(DEPLOY_TARGETS) as DeployTarget[];

/** A protection cell: check:host's verdict (null: not run here) and what docs/DEPLOY.md says. */
export interface ProtectionCell {
  kept: boolean | null;
  text: string;
}

const HEADER = { kept: true, text: '✓ header' } as const;
const LOST = { kept: false, text: '✗ not sent' } as const;
const NOT_RUN = (text: string): ProtectionCell => ({ kept: null, text });

const KEPT = (text = ''): ProtectionCell => ({ kept: true, text: text ? `✓ ${text}` : '✓' });
const ON_EVERY_RUN_HOST = (text: string): Record<DeployTarget, ProtectionCell> => ({
  base44: KEPT(text),
  cloudflare: KEPT(text),
  netlify: NOT_RUN('not run here'),
  nginx: KEPT(text),
  apache: KEPT(text),
  caddy: KEPT(text),
  firebase: KEPT(text),
  vercel: KEPT(text),
  'github-pages': KEPT(text),
  s3: KEPT(text),
});

/** One row per check of `npm run check:host` that judges the host, in its order. */
export const PROTECTION_ROWS: Record<HostCheckId, Record<DeployTarget, ProtectionCell>> = {
  pages: {
    base44: KEPT('(index.html at every address)'),
    cloudflare: KEPT(),
    netlify: NOT_RUN('not run here'),
    nginx: KEPT(),
    apache: KEPT(),
    caddy: KEPT(),
    firebase: KEPT(),
    vercel: KEPT(),
    'github-pages': KEPT(),
    s3: { kept: false, text: '✗ `/ComingSoon` is its 404' },
  },
  'unknown-path': {
    base44: KEPT('200, the early script shows it'),
    cloudflare: KEPT('404'),
    netlify: NOT_RUN('404 (its rule; not run here)'),
    nginx: KEPT('404'),
    apache: KEPT('404'),
    caddy: KEPT('404'),
    firebase: KEPT('404'),
    vercel: KEPT('404'),
    'github-pages': KEPT('404'),
    s3: KEPT('404'),
  },
  'soft-404': {
    base44: { kept: false, text: '✗ 200, `noindex` only once scripts run' },
    cloudflare: KEPT('404'),
    netlify: NOT_RUN('404 (its rule; not run here)'),
    nginx: KEPT('404'),
    apache: KEPT('404'),
    caddy: KEPT('404'),
    firebase: KEPT('404'),
    vercel: KEPT('404'),
    'github-pages': KEPT('404'),
    s3: KEPT('404'),
  },
  csp: {
    base44: { kept: true, text: '✓ `<meta>`' },
    cloudflare: { kept: true, text: '✓ header + `<meta>`' },
    netlify: { kept: true, text: '✓ header + `<meta>`' },
    nginx: { kept: true, text: '✓ header + `<meta>`' },
    apache: { kept: true, text: '✓ header + `<meta>`' },
    caddy: { kept: true, text: '✓ header + `<meta>`' },
    firebase: { kept: true, text: '✓ header + `<meta>`' },
    vercel: { kept: true, text: '✓ header + `<meta>`' },
    'github-pages': { kept: true, text: '✓ `<meta>`' },
    s3: { kept: true, text: '✓ `<meta>`' },
  },
  'frame-ancestors': {
    base44: { kept: false, text: '✗ (framing guard instead)' },
    cloudflare: HEADER,
    netlify: HEADER,
    nginx: HEADER,
    apache: HEADER,
    caddy: HEADER,
    firebase: HEADER,
    vercel: HEADER,
    'github-pages': { kept: false, text: '✗ (framing guard instead)' },
    s3: { kept: false, text: '✗ (framing guard instead)' },
  },
  'referrer-policy': {
    base44: { kept: true, text: '✓ `<meta>`' },
    cloudflare: { kept: true, text: '✓ header + `<meta>`' },
    netlify: { kept: true, text: '✓ header + `<meta>`' },
    nginx: { kept: true, text: '✓ header + `<meta>`' },
    apache: { kept: true, text: '✓ header + `<meta>`' },
    caddy: { kept: true, text: '✓ header + `<meta>`' },
    firebase: { kept: true, text: '✓ header + `<meta>`' },
    vercel: { kept: true, text: '✓ header + `<meta>`' },
    'github-pages': { kept: true, text: '✓ `<meta>`' },
    s3: { kept: true, text: '✓ `<meta>`' },
  },
  'permissions-policy': {
    base44: LOST,
    cloudflare: HEADER,
    netlify: HEADER,
    nginx: HEADER,
    apache: HEADER,
    caddy: HEADER,
    firebase: HEADER,
    vercel: HEADER,
    'github-pages': LOST,
    s3: LOST,
  },
  nosniff: {
    base44: LOST,
    cloudflare: HEADER,
    netlify: HEADER,
    nginx: HEADER,
    apache: HEADER,
    caddy: HEADER,
    firebase: HEADER,
    vercel: HEADER,
    'github-pages': LOST,
    s3: LOST,
  },
  coop: {
    base44: LOST,
    cloudflare: HEADER,
    netlify: HEADER,
    nginx: HEADER,
    apache: HEADER,
    caddy: HEADER,
    firebase: HEADER,
    vercel: HEADER,
    'github-pages': LOST,
    s3: LOST,
  },
  cors: {
    base44: { kept: true, text: '✓ not sent' },
    cloudflare: { kept: true, text: '✓ removed by `_headers`' },
    netlify: { kept: true, text: '✓ not sent' },
    nginx: { kept: true, text: '✓ not sent' },
    apache: { kept: true, text: '✓ not sent' },
    caddy: { kept: true, text: '✓ not sent' },
    firebase: { kept: true, text: '✓ not sent' },
    vercel: { kept: true, text: '✓ not sent' },
    'github-pages': { kept: false, text: '✗ `*` (GitHub always sends it)' },
    s3: { kept: true, text: '✓ not sent' },
  },
  'static-caching': {
    base44: { kept: false, text: '✗ host default' },
    cloudflare: { kept: true, text: '✓ immutable, 1 year' },
    netlify: { kept: true, text: '✓ immutable, 1 year' },
    nginx: { kept: true, text: '✓ immutable, 1 year' },
    apache: { kept: true, text: '✓ immutable, 1 year' },
    caddy: { kept: true, text: '✓ immutable, 1 year' },
    firebase: { kept: true, text: '✓ immutable, 1 year' },
    vercel: { kept: true, text: '✓ immutable, 1 year' },
    'github-pages': { kept: false, text: '✗ `max-age=600`' },
    s3: { kept: false, text: '✗ none' },
  },
  'html-caching': {
    base44: KEPT('host default'),
    cloudflare: KEPT('`no-cache`'),
    // Netlify's parser matches `_headers` rules by the path asked for: the 404 page at a missing
    // `/_next/static` file gets that folder's year (tests/integration/deploy/netlify-host-table.test.ts).
    netlify: { kept: false, text: '✗ 404 page of a missing hashed file: 1 year' },
    nginx: KEPT('`no-cache`'),
    apache: KEPT('`no-cache`'),
    caddy: KEPT('`no-cache`'),
    firebase: KEPT('`no-cache`'),
    vercel: KEPT('`no-cache`'),
    'github-pages': KEPT('`max-age=600`'),
    s3: KEPT('none'),
  },
  'redirect-query': {
    base44: { kept: true, text: '✓ no redirects' },
    cloudflare: { kept: true, text: '✓ 308, query kept' },
    netlify: NOT_RUN('not run here'),
    nginx: { kept: true, text: '✓ no redirects' },
    apache: { kept: true, text: '✓ 308, query kept' },
    caddy: { kept: true, text: '✓ 308, query kept' },
    firebase: { kept: true, text: '✓ no redirects' },
    vercel: { kept: true, text: '✓ no redirects' },
    'github-pages': { kept: true, text: '✓ no redirects' },
    s3: { kept: true, text: '✓ no redirects' },
  },
  'redirect-end': ON_EVERY_RUN_HOST('no loops'),
  'token-origin': ON_EVERY_RUN_HOST('stays'),
};

/** What a host answers with a page that is no file of the export (its own error page). */
export const ITS_OWN_PAGE = 'its own page';

/**
 * How a host answers a request: a file of the export (or `ITS_OWN_PAGE`) with a status, or a
 * redirect (its Location as a path, the host's origin left out).
 */
export type PathAnswer = { status: 200 | 400 | 404 | 500; file: string } | { status: 308; location: string };

const page = (file: string): PathAnswer => ({ status: 200, file });
const notFound: PathAnswer = { status: 404, file: '404.html' };
const redirect = (location: string): PathAnswer => ({ status: 308, location });

/** The other addresses of the pages, and the 404 screen's own, as each host answers them (null: not run here). */
export const PATH_ROWS: ReadonlyArray<{ request: string; answers: Record<DeployTarget, PathAnswer | null> }> = [
  {
    request: '/ComingSoon',
    answers: {
      base44: page('index.html'),
      cloudflare: page('ComingSoon.html'),
      netlify: null,
      nginx: page('ComingSoon.html'),
      apache: page('ComingSoon.html'),
      caddy: page('ComingSoon.html'),
      firebase: page('ComingSoon.html'),
      vercel: page('ComingSoon.html'),
      'github-pages': page('ComingSoon.html'),
      s3: notFound,
    },
  },
  {
    request: '/ComingSoon/?keep=1',
    answers: {
      base44: page('index.html'),
      cloudflare: redirect('/ComingSoon?keep=1'),
      netlify: null,
      nginx: page('ComingSoon.html'),
      apache: redirect('/ComingSoon?keep=1'),
      caddy: redirect('/ComingSoon?keep=1'),
      firebase: page('ComingSoon.html'),
      vercel: page('ComingSoon.html'),
      'github-pages': notFound,
      s3: notFound,
    },
  },
  {
    request: '/ComingSoon.html?keep=1',
    answers: {
      base44: page('ComingSoon.html'),
      cloudflare: redirect('/ComingSoon?keep=1'),
      netlify: null,
      nginx: page('ComingSoon.html'),
      apache: redirect('/ComingSoon?keep=1'),
      caddy: redirect('/ComingSoon?keep=1'),
      firebase: page('ComingSoon.html'),
      vercel: page('ComingSoon.html'),
      'github-pages': page('ComingSoon.html'),
      s3: page('ComingSoon.html'),
    },
  },
  {
    request: '/index.html?keep=1',
    answers: {
      base44: page('index.html'),
      cloudflare: redirect('/?keep=1'),
      netlify: null,
      nginx: page('index.html'),
      apache: redirect('/?keep=1'),
      caddy: redirect('/?keep=1'),
      firebase: page('index.html'),
      vercel: page('index.html'),
      'github-pages': page('index.html'),
      s3: page('index.html'),
    },
  },
  // The 404 screen's own addresses: a soft 404 (status 200) where a host knows only `_headers`
  // (Cloudflare Pages sends `X-Robots-Tag: noindex` with it), a 404 where the configuration can say so.
  {
    request: '/404.html',
    answers: {
      base44: page('404.html'),
      cloudflare: redirect('/404'),
      netlify: null,
      nginx: notFound,
      apache: notFound,
      caddy: notFound,
      firebase: notFound,
      vercel: page('404.html'),
      'github-pages': page('404.html'),
      s3: page('404.html'),
    },
  },
  {
    request: '/404',
    answers: {
      base44: page('index.html'),
      cloudflare: page('404.html'),
      netlify: null,
      nginx: notFound,
      apache: notFound,
      caddy: notFound,
      firebase: notFound,
      vercel: notFound,
      'github-pages': page('404.html'),
      s3: notFound,
    },
  },
  // A path that is not valid percent-encoding: some servers refuse it before any rule of ours runs.
  {
    request: '/%E0%A4%A',
    answers: {
      base44: page('index.html'),
      cloudflare: notFound,
      netlify: null,
      nginx: notFound,
      apache: { status: 400, file: '404.html' },
      caddy: { status: 400, file: ITS_OWN_PAGE },
      firebase: { status: 500, file: ITS_OWN_PAGE },
      vercel: { status: 400, file: ITS_OWN_PAGE },
      'github-pages': notFound,
      s3: notFound,
    },
  },
];

function pathCellText(answer: PathAnswer | null): string {
  if (answer === null) return 'not run here';
  if (answer.status === 308) return `308 → \`${answer.location}\``;
  return `${answer.status} ${answer.file}`;
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** The table as docs/DEPLOY.md carries it. */
export function renderHostTable(): string {
  const header = `| | ${TARGET_ORDER.map((target) => DEPLOY_TARGETS[target].title).join(' | ')} |`;
  const rule = `| --- | ${TARGET_ORDER.map(() => '---').join(' | ')} |`;
  const protections = (Object.keys(PROTECTION_ROWS) as HostCheckId[]).map(
    (id) =>
      `| ${CHECKS[id].label} | ${TARGET_ORDER.map((target) => escapeCell(PROTECTION_ROWS[id][target].text)).join(' | ')} |`,
  );
  const paths = PATH_ROWS.map(
    (row) =>
      `| \`${row.request}\` | ${TARGET_ORDER.map((target) => escapeCell(pathCellText(row.answers[target]))).join(' | ')} |`,
  );
  return [header, rule, ...protections, ...paths].join('\n');
}
