import { isSameOriginUrl, originOf, parseAbsoluteHttpUrl, safeRedirectTarget } from '@/lib/sdk/core/redirects';

const SITE = 'https://site.example';

describe('safeRedirectTarget: only same-origin targets survive', () => {
  it.each([
    ['/dashboard', 'https://site.example/dashboard'],
    ['/ComingSoon?tab=1#top', 'https://site.example/ComingSoon?tab=1#top'],
    ['page', 'https://site.example/page'],
    ['https://site.example/x', 'https://site.example/x'],
    ['HTTPS://SITE.EXAMPLE/Upper', 'https://site.example/Upper'],
    ['https://site.example:443/default-port', 'https://site.example/default-port'],
  ])('accepts %p as %p', (target, expected) => {
    expect(safeRedirectTarget(target, SITE)).toBe(expected);
    expect(isSameOriginUrl(target, SITE)).toBe(true);
  });

  it.each([
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/site.example'],
    ['backslash trick', '/\\evil.example'],
    ['double backslash', '\\\\evil.example'],
    ['tab inside the slashes', '/\t/evil.example'],
    ['javascript: URL', 'javascript:alert(document.cookie)'],
    ['javascript: with spacing and case', ' JaVaScRiPt:alert(1)'],
    ['data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript: URL', 'vbscript:msgbox(1)'],
    ['other scheme same host', 'http://site.example/'],
    ['other port', 'https://site.example:8443/'],
    ['look-alike suffix', 'https://site.example.evil.example/'],
    ['look-alike prefix', 'https://evilsite.example/'],
    ['credentials naming the site', 'https://site.example@evil.example/'],
    ['credentials on the site itself', 'https://user:pass@site.example/'],
    ['unicode look-alike', 'https://sіte.example/'],
    ['empty', ''],
    ['whitespace', '   '],
  ])('rejects %s (%p)', (_label, target) => {
    expect(safeRedirectTarget(target, SITE)).toBeNull();
    expect(isSameOriginUrl(target, SITE)).toBe(false);
  });

  it.each([[undefined], [null], [42], [{ href: '/x' }]])('rejects the non-string %p', (target) => {
    expect(safeRedirectTarget(target, SITE)).toBeNull();
  });

  it('rejects everything when the current origin itself is not an http(s) origin', () => {
    expect(safeRedirectTarget('/x', 'null')).toBeNull();
    expect(safeRedirectTarget('/x', 'file:///etc')).toBeNull();
  });
});

describe('parseAbsoluteHttpUrl and originOf', () => {
  it('parses absolute http(s) URLs to their exact origin', () => {
    expect(originOf('http://127.0.0.1:3001/api')).toBe('http://127.0.0.1:3001');
    expect(parseAbsoluteHttpUrl('https://platform.example/')?.href).toBe('https://platform.example/');
  });

  it.each([
    '//evil.example',
    '/relative',
    'javascript:alert(1)',
    'data:,x',
    'ftp://files.example',
    'https://u@h.example',
    'not a url',
  ])('refuses %p', (value) => {
    expect(parseAbsoluteHttpUrl(value)).toBeNull();
    expect(originOf(value)).toBeNull();
  });
});
