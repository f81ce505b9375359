import { insertEarlyHead, notFoundScreenOf } from '@/build-steps/export/early-head';
import { inlineScriptHashes, inlineStyleHashes } from '@/deploy/headers/inline-scripts';

const SCREEN = '<main lang="en" class="flex"><h1>Page Not Found</h1><a href="/">Go Home</a></main>';
const HEAD = {
  contentSecurityPolicy: "default-src 'self'; script-src 'self' 'sha256-a'",
  referrerPolicy: 'strict-origin',
  notFoundScreen: SCREEN,
};
const PAGE =
  '<!DOCTYPE html><html lang="de"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>' +
  '<style data-precedence="next">body{margin:0}</style><script src="/_next/a.js" async=""></script>' +
  '<script>(function(){})()</script></head><body><main>x</main><script>self.__next_f.push([1,"<meta charSet>"])</script></body></html>';
const EARLY = /<meta http-equiv[^>]*\/><meta name="referrer"[^>]*\/>(<template data-missing-page="">.*?<\/template>)?/;

describe('the early <head> elements', () => {
  const html = insertEarlyHead(PAGE, HEAD, 'index.html');

  it('come right after <meta charSet>, before every style, script and request', () => {
    const policyAt = html.indexOf('<meta http-equiv="Content-Security-Policy"');
    const referrerAt = html.indexOf('<meta name="referrer" content="strict-origin"/>');
    expect(policyAt).toBe(html.indexOf('<meta charSet="utf-8"/>') + '<meta charSet="utf-8"/>'.length);
    for (const tag of ['<style', '<script', '<link']) {
      const first = html.indexOf(tag);
      if (first >= 0) expect(Math.max(policyAt, referrerAt)).toBeLessThan(first);
    }
    expect(html).toContain(`content="default-src 'self'; script-src 'self' 'sha256-a'"`);
    expect(html).toContain(`<template data-missing-page="">${SCREEN}</template><meta name="viewport"`);
  });

  it('leave every inline script and style as it was hashed', () => {
    expect(inlineScriptHashes(html)).toEqual(inlineScriptHashes(PAGE));
    expect(inlineStyleHashes(html)).toEqual(inlineStyleHashes(PAGE));
    expect(html.replace(EARLY, '')).toBe(PAGE);
  });

  it('leave the 404 screen out of the 404 page itself', () => {
    expect(insertEarlyHead(PAGE, { ...HEAD, notFoundScreen: null }, '404.html')).not.toContain('<template');
  });

  it('escape the policy as an attribute value', () => {
    const odd = insertEarlyHead(PAGE, { ...HEAD, contentSecurityPolicy: `a"b<c>&d` }, 'x.html');
    expect(odd).toContain('content="a&quot;b&lt;c&gt;&amp;d"');
  });

  it('are replaced, not repeated, when the export is processed again', () => {
    const again = insertEarlyHead(html, { ...HEAD, referrerPolicy: 'no-referrer' }, 'index.html');
    expect(again.match(/http-equiv="Content-Security-Policy"/g)).toHaveLength(1);
    expect(again.match(/<meta name="referrer"/g)).toHaveLength(1);
    expect(again.match(/<template/g)).toHaveLength(1);
    expect(again).toContain('<meta name="referrer" content="no-referrer"/>');
  });

  it('stop the build when the page does not look as Next.js writes it', () => {
    expect(() => insertEarlyHead('<html><head></head></html>', HEAD, 'a.html')).toThrow(
      /a\.html: expected exactly one/,
    );
    const twice = PAGE.replace('<head>', '<head><meta charSet="utf-8"/>');
    expect(() => insertEarlyHead(twice, HEAD, 'b.html')).toThrow(/expected exactly one/);
    const scriptFirst = PAGE.replace('<head>', '<head><script>x()</script>');
    expect(() => insertEarlyHead(scriptFirst, HEAD, 'c.html')).toThrow(/<script before/);
  });
});

describe("the 404 page's screen", () => {
  it('is the one <main> of 404.html', () => {
    expect(notFoundScreenOf(`<html><body><div hidden=""></div>${SCREEN}<script>x()</script></body></html>`)).toBe(
      SCREEN,
    );
  });

  it('stops the build when there is none, several, or one with a script', () => {
    expect(() => notFoundScreenOf('<body></body>')).toThrow(/expected one <main>/);
    expect(() => notFoundScreenOf(`${SCREEN}${SCREEN}`)).toThrow(/expected one <main>/);
    expect(() => notFoundScreenOf('<main><script>x()</script></main>')).toThrow(/without scripts/);
  });
});
