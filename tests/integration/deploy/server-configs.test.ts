/**
 * The server configurations written from the one policy (deploy/headers/servers): each carries the
 * headers of `_headers` and nothing else, gives each page its addresses, answers the 404 screen's own
 * addresses 404 where the server can, and refuses what a server could not read. The servers
 * themselves run them in the host matrix (tests/hosts/servers.spec.ts).
 */
import { buildHeaderRules, IMMUTABLE, REVALIDATE } from '@/deploy/headers/policy';
import { hostConfigurations } from '@/deploy/headers/servers';
import { toApacheSnippet, toHtaccess } from '@/deploy/headers/servers/apache';
import { toCaddySnippet } from '@/deploy/headers/servers/caddy';
import { toFirebaseJson } from '@/deploy/headers/servers/firebase';
import { serverRules } from '@/deploy/headers/servers/site-rules';
import { toServeJson, toVercelJson } from '@/deploy/headers/servers/vercel';
import { SMALL_EXPORT_POLICY } from '@/tests/support/small-export';

const rules = buildHeaderRules({ ...SMALL_EXPORT_POLICY, otherFiles: ['/robots.txt'] });
const siteWide = rules.find((rule) => rule.path === '/*')?.headers ?? {};

type HeaderEntry = { source: string; headers: Array<{ key: string; value: string }> };
const asRecord = (entry: HeaderEntry | undefined) =>
  Object.fromEntries((entry?.headers ?? []).map(({ key, value }) => [key, value]));

it("marks the 404 screen's own addresses noindex in _headers: Cloudflare Pages answers /404 with 200", () => {
  for (const path of ['/404', '/404/', '/404.html']) {
    expect(rules.find((rule) => rule.path === path)?.headers).toEqual({
      'Cache-Control': REVALIDATE,
      'X-Robots-Tag': 'noindex',
    });
  }
  expect(rules.find((rule) => rule.path === '/ComingSoon')?.headers).toEqual({ 'Cache-Control': REVALIDATE });
});

it('reads the rules as servers need them: pages with their one address, the 404 screen apart', () => {
  const site = serverRules(rules);
  expect(site.pages).toEqual([
    { file: 'index.html', address: '/', aliases: ['/index.html'] },
    { file: 'ComingSoon.html', address: '/ComingSoon', aliases: ['/ComingSoon/', '/ComingSoon.html'] },
  ]);
  expect(site.notFoundPaths).toEqual(['/404', '/404/', '/404.html']);
  expect(site.files).toEqual({ 'Cache-Control': REVALIDATE });
  expect(site.prefixes).toEqual([{ prefix: '/_next/static/', headers: { 'Cache-Control': IMMUTABLE } }]);
});

it('refuses rules it could not write for a server: files with different headers', () => {
  const odd = rules.map((rule) =>
    rule.path === '/robots.txt' ? { ...rule, headers: { 'Cache-Control': 'max-age=60' } } : rule,
  );
  expect(() => serverRules(odd)).toThrow(/\/robots\.txt has other headers than \//);
});

describe('Apache', () => {
  it('.htaccess and the snippet carry the same folder rules, the snippet inside <Directory "${SITE_ROOT}">', () => {
    const htaccess = toHtaccess(rules);
    const snippet = toApacheSnippet(rules);
    const body = htaccess.split('\n').slice(2).filter(Boolean);
    for (const line of body) expect(snippet).toContain(`  ${line}\n`);
    expect(snippet).toContain('<Directory "${SITE_ROOT}">');
    expect(snippet).toContain('DocumentRoot "${SITE_ROOT}"');
  });

  it('sends every header of _headers, the hashed assets a year, and the page rules in order', () => {
    const htaccess = toHtaccess(rules);
    for (const [name, value] of Object.entries(siteWide))
      expect(htaccess).toContain(`Header always set ${name} "${value}"\n`);
    expect(htaccess).toContain(
      `<If "%{REQUEST_URI} =~ m#^/_next/static/#">\n  Header always set Cache-Control "${IMMUTABLE}"\n</If>`,
    );
    const rewrite = htaccess.split('\n').filter((line) => line.startsWith('RewriteRule'));
    expect(rewrite).toEqual([
      'RewriteRule ^ - [L]',
      'RewriteRule "^(?:404|404/|404\\.html|_headers|\\.htaccess|firebase\\.json|vercel\\.json|serve\\.json)$" - [R=404,L]',
      'RewriteRule "^index\\.html$" "/" [R=308,L]',
      'RewriteRule "^(?:ComingSoon/|ComingSoon\\.html)$" "/ComingSoon" [R=308,L]',
      'RewriteRule "^$" "/index.html" [L]',
      'RewriteRule "^ComingSoon$" "/ComingSoon.html" [L]',
      'RewriteRule ^ - [R=404,L]',
    ]);
  });
});

it('Caddy: the site headers in the route and on errors, a case-sensitive match per page address', () => {
  const caddy = toCaddySnippet(rules);
  expect(caddy.match(/Content-Security-Policy "/g)).toHaveLength(2);
  expect(caddy.match(/Cache-Control "public, max-age=31536000, immutable"/g)).toHaveLength(1);
  expect(caddy).toContain('@page1 path_regexp "^(?:/ComingSoon)$"\n\trewrite @page1 "/ComingSoon.html"');
  expect(caddy).toContain('redir @page1AliasQuery "/ComingSoon?{http.request.uri.query}" 308');
  expect(caddy).toMatch(/handle_errors \{\n(.*\n)*\trewrite \* \/404\.html\n\tfile_server\n\}/);
});

/** Files of an export under /_next/static, one with the brackets of a dynamic route in its path. */
const HASHED = ['/_next/static/chunks/app-1.js', '/_next/static/chunks/app/[pageName]/page-2.js'];
const EXPORT_PATHS = ['/index.html', '/ComingSoon.html', '/robots.txt', ...HASHED];

type FirebaseEntry = { source?: string; regex?: string; headers: Array<{ key: string; value: string }> };

function firebaseHosting() {
  return (
    JSON.parse(toFirebaseJson(rules, EXPORT_PATHS)) as {
      hosting: {
        public: string;
        cleanUrls: boolean;
        rewrites: unknown[];
        redirects?: unknown;
        headers: FirebaseEntry[];
        ignore: string[];
      };
    }
  ).hosting;
}

it('Firebase: one header entry per _headers rule, rewrites and no redirect (superstatic loops or stops on them)', () => {
  const hosting = firebaseHosting();
  expect(hosting.public).toBe('.');
  expect(hosting.cleanUrls).toBe(false);
  expect(hosting.redirects).toBeUndefined();
  expect(hosting.rewrites).toEqual([
    { source: '/ComingSoon', destination: '/ComingSoon.html' },
    { source: '/ComingSoon/', destination: '/ComingSoon.html' },
  ]);
  expect(hosting.headers.map((entry) => entry.source ?? entry.regex)).toEqual(
    rules.map((rule) => (rule.path === '/*' ? '**' : rule.path.endsWith('*') ? expect.any(String) : rule.path)),
  );
  expect(asRecord(hosting.headers[0] as HeaderEntry)).toEqual(siteWide);
  expect(hosting.ignore).toEqual(
    expect.arrayContaining(['**/.*', '_headers', 'vercel.json', 'serve.json', 'firebase.json']),
  );
});

it('Firebase: a year immutable for the hashed files of the export only, not for the 404 of a missing one', () => {
  const hashed = firebaseHosting().headers.filter(
    (entry) => asRecord(entry as HeaderEntry)['Cache-Control'] === IMMUTABLE,
  );
  expect(hashed).toHaveLength(1);
  // superstatic runs it as RE2 where that is installed, else as a JavaScript expression with the `u` flag.
  const matches = new RegExp(hashed[0]?.regex ?? '(?!)', 'u');
  for (const path of HASHED) expect([path, matches.test(path)]).toEqual([path, true]);
  for (const path of [
    '/_next/static/chunks/missing.js',
    '/_next/static/chunks/app-1.js.map',
    '/_next/static/chunks/app-1xjs',
    '/_next/static/chunks/app/p/page-2.js',
    '/robots.txt',
  ]) {
    expect([path, matches.test(path)]).toEqual([path, false]);
  }
});

describe('Vercel', () => {
  it('serve.json: no redirect (serve drops the query on them), no listing, later header entries win', () => {
    const serve = JSON.parse(toServeJson(rules)) as {
      cleanUrls: string[];
      directoryListing: boolean;
      headers: HeaderEntry[];
    };
    expect(serve.cleanUrls).toEqual(['/', '/ComingSoon', '/ComingSoon/']);
    expect(serve.directoryListing).toBe(false);
    expect(serve.headers.map((entry) => entry.source)).toEqual([
      '**',
      '/_next/static/**',
      '{404.html,_not-found.html}',
    ]);
    expect(asRecord(serve.headers[0])).toEqual({ ...siteWide, 'Cache-Control': REVALIDATE });
  });

  it('serve.json: refuses a header serve would refuse the whole file for', () => {
    const long = rules.map((rule) =>
      rule.path === '/*'
        ? { ...rule, headers: { ...rule.headers, 'Content-Security-Policy': `default-src 'self' ${'x'.repeat(2100)}` } }
        : rule,
    );
    expect(() => toServeJson(long)).toThrow(
      /Content-Security-Policy is \d+ characters; serve refuses values over 2048/,
    );
  });

  it('vercel.json: every path gets exactly one Cache-Control, whatever order Vercel applies them in', () => {
    const vercel = JSON.parse(toVercelJson(rules)) as {
      cleanUrls: boolean;
      headers: HeaderEntry[];
      rewrites: unknown[];
    };
    expect(vercel.cleanUrls).toBe(false);
    // These sources use path-to-regexp's `(...)` groups only, which are regular expressions as written.
    const matching = (path: string) => vercel.headers.filter((entry) => new RegExp(`^${entry.source}$`).test(path));
    for (const path of ['/', '/ComingSoon', '/_next/static/chunks/a.js', '/robots.txt', '/_next/data']) {
      const caches = matching(path).filter((entry) => 'Cache-Control' in asRecord(entry));
      expect([path, caches.length]).toEqual([path, 1]);
      expect(asRecord(matching(path)[0])).toEqual(siteWide);
    }
  });
});

it('writes each file where its host reads it: the folder for uploads, deploy/generated for server configuration', () => {
  expect(hostConfigurations(rules, EXPORT_PATHS).map(({ place, name }) => `${place}:${name}`)).toEqual([
    'folder:.htaccess',
    'folder:firebase.json',
    'folder:vercel.json',
    'folder:serve.json',
    'generated:apache-<folder>.conf',
    'generated:caddy-<folder>.caddy',
  ]);
});
