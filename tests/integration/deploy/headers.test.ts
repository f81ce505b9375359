import { createHash } from 'node:crypto';
import { headersForPath, parseHeadersFile, toHeadersFile, toNginxSnippet } from '@/deploy/headers/formats';
import { inlineScriptHashes } from '@/deploy/headers/inline-scripts';
import { buildHeaderRules, type PolicyInput } from '@/deploy/headers/policy';
import { pathsOfHtmlFile } from '@/scripts/generate-headers';

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
});

const input: PolicyInput = {
  pages: [
    { file: 'index.html', paths: ['/', '/index.html'], scriptHashes: ["'sha256-home'"] },
    { file: '404.html', paths: ['/404', '/404/', '/404.html'], scriptHashes: ["'sha256-missing'"] },
  ],
  otherFiles: ['/robots.txt'],
  platformOrigins: ['https://platform.example', 'https://platform.example'],
  editorOrigins: ['https://editor.example'],
};

function policies(header: string | undefined): string[] {
  // A combined header holds several policies separated by ", " (hashes never contain commas).
  return (header ?? '').split(', ').filter(Boolean);
}

describe('header rules', () => {
  const rules = buildHeaderRules(input);

  it('gives a page its own strict CSP on top of the site-wide one', () => {
    const headers = headersForPath(rules, '/');
    const [siteWide, own] = policies(headers['Content-Security-Policy']);
    expect(own).toContain("script-src 'self' 'sha256-home'");
    expect(own).not.toContain('sha256-missing');
    expect(siteWide).toContain("script-src 'self' 'sha256-home' 'sha256-missing'");
    for (const policy of [siteWide, own]) {
      expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'self'");
      expect(policy).toContain("frame-ancestors 'self' https://editor.example");
      expect(policy).toContain("connect-src 'self' https://platform.example wss://platform.example;");
    }
    expect(headers['Cache-Control']).toBe('no-cache');
    expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Permissions-Policy']).toContain('camera=()');
  });

  it('caches hashed assets immutably without a conflicting Cache-Control', () => {
    expect(headersForPath(rules, '/_next/static/chunks/a.js')['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(headersForPath(rules, '/robots.txt')['Cache-Control']).toBe('no-cache');
  });

  it('survives a round trip through the _headers format', () => {
    expect(parseHeadersFile(toHeadersFile(rules))).toEqual(rules.map(({ path, headers }) => ({ path, headers })));
  });

  it('refuses a malformed _headers file instead of serving without headers', () => {
    expect(() => parseHeadersFile('  X-Orphan: 1\n')).toThrow(/cannot read line/);
  });

  it('writes nginx locations that serve each page file with its headers', () => {
    const nginx = toNginxSnippet(rules);
    expect(nginx).toContain('location = / {');
    expect(nginx).toContain('try_files /index.html =404;');
    expect(nginx).toContain('location ^~ /_next/static/ {');
    expect(nginx).toContain('error_page 404 /404.html;');
    expect(nginx).toMatch(/location = \/ \{\n(.*\n)*?\s+add_header Content-Security-Policy "[^"]*'sha256-home'/);
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
