import { createHash } from 'node:crypto';

import { pathsOfHtmlFile } from '@/build-steps/export/generate-headers';
import {
  headersForPath,
  netlifyHeadersForPath,
  parseHeadersFile,
  toHeadersFile,
  toNginxSnippet,
} from '@/deploy/headers/formats';
import { hasStyleAttributes, inlineScriptHashes, inlineStyleHashes } from '@/deploy/headers/inline-scripts';
import {
  assertDisjointRules,
  buildHeaderRules,
  metaContentSecurityPolicy,
  siteWideRules,
  type HeaderRule,
  type PolicyInput,
} from '@/deploy/headers/policy';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inline script hashes', () => {
  it('hashes the exact text of inline scripts only', () => {
    const html = [
      '<script src="/_next/a.js" async=""></script>',
      '<script>self.__next_f.push([1,"x"])</script>',
      '<script id="_R_">(function(){})()</script>',
      '<script type="application/ld+json">{"@type":"Thing"}</script>',
      '<script>self.__next_f.push([1,"x"])</script>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([sha('(function(){})()'), sha('self.__next_f.push([1,"x"])')].sort());
  });

  it('hashes the exact text of <style> elements and spots style attributes', () => {
    const css = 'a>b{color:red}@media (x){*{margin:0}}';
    const html = `<style data-precedence="next" data-href="/a.css">${css}</style><p class="x">y</p>`;
    expect(inlineStyleHashes(html)).toEqual([sha(css)]);
    expect(hasStyleAttributes(html)).toBe(false);
    expect(hasStyleAttributes('<div class="a" style="color:red">x</div>')).toBe(true);
  });
});

const input: PolicyInput = {
  pages: [
    { file: 'index.html', paths: ['/', '/index.html'], scriptHashes: ["'sha256-home'"], styleHashes: ["'sha256-css'"] },
    {
      file: '404.html',
      paths: ['/404', '/404/', '/404.html'],
      scriptHashes: ["'sha256-missing'"],
      styleHashes: ["'sha256-css'"],
    },
  ],
  otherFiles: ['/robots.txt'],
  platformOrigins: ['https://platform.example', 'https://platform.example'],
  editorOrigins: ['https://editor.example'],
};

/** Paths a visitor (or a crafted link) may ask for: pages, files, assets, unknown and odd paths. */
const PATHS = [
  '/',
  '/index.html',
  '/404',
  '/404.html',
  '/robots.txt',
  '/_next/static/chunks/a.js',
  '/missing',
  '//x/y',
  '/_next/other',
];

function policies(header: string | undefined): string[] {
  // A header joined by a host holds several policies separated by "," (hashes never contain commas).
  return (header ?? '').split(',').filter(Boolean);
}

describe('header rules', () => {
  const rules = buildHeaderRules(input);
  const hostsReading = parseHeadersFile(toHeadersFile(rules));

  it('is one strict policy for the whole site, with no unsafe-inline anywhere', () => {
    const [policy, ...more] = policies(headersForPath(rules, '/')['Content-Security-Policy']);
    expect(more).toEqual([]);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("script-src 'self' 'sha256-home' 'sha256-missing';");
    expect(policy).toContain("style-src 'self' 'sha256-css';");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'self'");
    expect(policy).toContain("frame-ancestors 'self' https://editor.example");
    expect(policy).toContain("connect-src 'self' https://platform.example wss://platform.example;");
  });

  it('lets the editor preview keep inline styles (Tailwind runtime) but never inline scripts', () => {
    const preview =
      headersForPath(buildHeaderRules({ ...input, runtimeStyles: true }), '/')['Content-Security-Policy'] ?? '';
    expect(preview).toContain("style-src 'self' 'unsafe-inline';");
    expect(preview).toContain("script-src 'self' 'sha256-home' 'sha256-missing';");
  });

  it.each(PATHS)('%s gets exactly the intended headers under Netlify and under Cloudflare Pages merging', (urlPath) => {
    const cloudflare = headersForPath(hostsReading, urlPath);
    const netlify = netlifyHeadersForPath(hostsReading, urlPath);
    expect(netlify).toEqual(cloudflare);
    expect(policies(cloudflare['Content-Security-Policy'])).toHaveLength(1);
    expect(cloudflare['Referrer-Policy']).toBe('strict-origin');
    expect(cloudflare['X-Content-Type-Options']).toBe('nosniff');
    expect(cloudflare['Permissions-Policy']).toContain('camera=()');
    const expectedCache = urlPath.startsWith('/_next/static/')
      ? 'public, max-age=31536000, immutable'
      : ['/missing', '//x/y', '/_next/other'].includes(urlPath)
        ? undefined
        : 'no-cache';
    expect(cloudflare['Cache-Control']).toBe(expectedCache);
  });

  it('the two merging models really differ, so agreeing above means something', () => {
    const overlapping: HeaderRule[] = [
      { path: '/*', headers: { 'Content-Security-Policy': "default-src 'self'" } },
      { path: '/', headers: { 'Content-Security-Policy': "default-src 'none'" } },
    ];
    expect(headersForPath(overlapping, '/')['Content-Security-Policy']).toBe("default-src 'self', default-src 'none'");
    expect(netlifyHeadersForPath(overlapping, '/')['Content-Security-Policy']).toBe("default-src 'none'");
    expect(() => assertDisjointRules(overlapping)).toThrow(/\/\* and \/ both set Content-Security-Policy/);
  });

  it('refuses overlapping prefixes and header names that differ only in case', () => {
    expect(() =>
      assertDisjointRules([
        { path: '/_next/*', headers: { 'cache-control': 'no-cache' } },
        { path: '/_next/static/*', headers: { 'Cache-Control': 'immutable' } },
      ]),
    ).toThrow(/both set cache-control/);
    expect(() =>
      assertDisjointRules([
        { path: '/a', headers: { 'Cache-Control': 'no-cache' } },
        { path: '/b', headers: { 'Cache-Control': 'no-cache' } },
      ]),
    ).not.toThrow();
  });

  it('holds the site-wide rules the benchmark serves the empty export with, plus only what the pages give', () => {
    const [everyAnswer, hashedFiles] = siteWideRules();
    const [first, second] = rules;
    const { 'Content-Security-Policy': policy, Link: preload, ...rest } = first?.headers ?? {};
    expect(policy).toContain("script-src 'self' 'sha256-home'");
    expect(preload).toBeUndefined();
    expect(first?.path).toBe(everyAnswer.path);
    expect(rest).toEqual(everyAnswer.headers);
    expect(first?.detach).toEqual(everyAnswer.detach);
    expect(second).toEqual(hashedFiles);
    expect(everyAnswer.headers).toMatchObject({ 'Cross-Origin-Opener-Policy': 'same-origin' });
  });

  it('survives a round trip through the _headers format', () => {
    expect(hostsReading).toEqual(
      rules.map(({ path, headers, detach }) => ({ path, headers, ...(detach && { detach }) })),
    );
  });

  it('removes the Access-Control-Allow-Origin Cloudflare Pages adds, from every path, with one `!` line under /*', () => {
    const file = toHeadersFile(rules);
    expect(file.match(/^ {2}! Access-Control-Allow-Origin$/gm)).toHaveLength(1);
    expect(file).toMatch(/^\/\*\n( {2}[^\n]+\n)* {2}! Access-Control-Allow-Origin\n/m);
    // Cloudflare Pages behaves as if a rule of its own set `*` on every path.
    const cloudflareDefault: HeaderRule = { path: '/*', headers: { 'Access-Control-Allow-Origin': '*' } };
    for (const urlPath of PATHS) {
      expect(headersForPath([cloudflareDefault], urlPath)['Access-Control-Allow-Origin']).toBe('*');
      expect(headersForPath([cloudflareDefault, ...hostsReading], urlPath)).not.toHaveProperty(
        'Access-Control-Allow-Origin',
      );
    }
  });

  it('keeps the nginx snippet as it was: nginx adds no Access-Control-Allow-Origin to remove', () => {
    const withoutDetach = rules.map(({ detach: _detach, ...rule }) => rule);
    expect(toNginxSnippet(rules)).toBe(toNginxSnippet(withoutDetach));
    expect(toNginxSnippet(rules)).not.toMatch(/Access-Control/i);
  });

  it('refuses a malformed _headers file instead of serving without headers', () => {
    expect(() => parseHeadersFile('  X-Orphan: 1\n')).toThrow(/cannot read line/);
  });

  it('writes nginx locations that serve each page file with the site-wide headers', () => {
    const nginx = toNginxSnippet(rules);
    expect(nginx).toContain('location = / {');
    expect(nginx).toContain('try_files /index.html =404;');
    expect(nginx).toContain('location ^~ /_next/static/ {');
    expect(nginx).toContain('error_page 404 /404.html;');
    // Served to nginx's own error pages only: asked for, /404.html answers 404 too.
    expect(nginx).toMatch(/location = \/404\.html \{\n\s+internal;\n(.*\n)*?\s+try_files \/404\.html =404;\n\}/);
    // What real nginx showed (the host matrix runs it): folders, undecodable paths and _headers.
    expect(nginx).toContain('error_page 400 =404 /404.html;');
    expect(nginx).toMatch(/location \/ \{\n\s+try_files \$uri =404;\n\}/);
    // The other hosts' files are no content, and the 404 screen's own addresses answer 404.
    for (const path of ['/_headers', '/.htaccess', '/firebase.json', '/vercel.json', '/serve.json', '/404', '/404/']) {
      expect(nginx).toContain(`location = ${path} {\n  return 404;\n}`);
    }
    expect(nginx).toMatch(/location = \/ \{\n(.*\n)*?\s+add_header Content-Security-Policy "[^"]*'sha256-home'/);
    // The site-wide set and one per location that serves a file (not `/404`, `/404/`).
    expect(nginx.match(/add_header Content-Security-Policy/g)?.length).toBe(rules.length - 2);
  });
});

/** A policy as a map of directive name -> its sources, in order. */
function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.split(' ', 1)[0] ?? '', part.slice(part.indexOf(' ') + 1)]),
  );
}

describe('the policy in <meta> for hosts without headers', () => {
  it.each([
    ['production', input],
    ['editor preview', { ...input, runtimeStyles: true, editorFontOrigins: ['https://fonts.example'] }],
  ])('%s: every directive of the header but frame-ancestors, word for word', (_build, policyInput) => {
    const header = directives(
      parseHeadersFile(toHeadersFile(buildHeaderRules(policyInput))).find((rule) => rule.path === '/*')?.headers[
        'Content-Security-Policy'
      ] ?? '',
    );
    const meta = directives(metaContentSecurityPolicy(policyInput));
    expect(header.get('frame-ancestors')).toBe("'self' https://editor.example");
    expect(meta.has('frame-ancestors')).toBe(false);
    header.delete('frame-ancestors');
    expect(meta).toEqual(header);
    for (const name of ['script-src', 'style-src', 'connect-src', 'object-src', 'base-uri', 'form-action'])
      expect(meta.get(name)).toBeTruthy();
  });

  it('never carries a directive a meta policy cannot hold', () => {
    expect(metaContentSecurityPolicy(input)).not.toMatch(/frame-ancestors|report-uri|report-to|sandbox/);
  });
});

describe('paths of exported HTML files', () => {
  it.each([
    ['index.html', ['/', '/index.html']],
    ['ComingSoon.html', ['/ComingSoon', '/ComingSoon/', '/ComingSoon.html']],
    ['docs/index.html', ['/docs', '/docs/', '/docs/index.html']],
  ])('%s', (file, paths) => {
    expect(pathsOfHtmlFile(file)).toEqual(paths);
  });
});
