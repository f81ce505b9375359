import { insertEarlyMeta } from '@/build-steps/export/early-meta';
import { inlineScriptHashes, inlineStyleHashes } from '@/deploy/headers/inline-scripts';

const META = {
  contentSecurityPolicy: "default-src 'self'; script-src 'self' 'sha256-a'",
  referrerPolicy: 'strict-origin',
};
const PAGE =
  '<!DOCTYPE html><html lang="de"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>' +
  '<style data-precedence="next">body{margin:0}</style><script src="/_next/a.js" async=""></script>' +
  '<script>(function(){})()</script></head><body><main>x</main><script>self.__next_f.push([1,"<meta charSet>"])</script></body></html>';

describe('the early <meta> elements', () => {
  const html = insertEarlyMeta(PAGE, META, 'index.html');

  it('come right after <meta charSet>, before every style, script and request', () => {
    const policyAt = html.indexOf('<meta http-equiv="Content-Security-Policy"');
    const referrerAt = html.indexOf('<meta name="referrer" content="strict-origin"/>');
    expect(policyAt).toBe(html.indexOf('<meta charSet="utf-8"/>') + '<meta charSet="utf-8"/>'.length);
    for (const tag of ['<style', '<script', '<link']) {
      const first = html.indexOf(tag);
      if (first >= 0) expect(Math.max(policyAt, referrerAt)).toBeLessThan(first);
    }
    expect(html).toContain(`content="default-src 'self'; script-src 'self' 'sha256-a'"`);
  });

  it('leave every inline script and style as it was hashed', () => {
    expect(inlineScriptHashes(html)).toEqual(inlineScriptHashes(PAGE));
    expect(inlineStyleHashes(html)).toEqual(inlineStyleHashes(PAGE));
    expect(html.replace(/<meta http-equiv[^>]*\/><meta name="referrer"[^>]*\/>/, '')).toBe(PAGE);
  });

  it('escape the policy as an attribute value', () => {
    const odd = insertEarlyMeta(PAGE, { ...META, contentSecurityPolicy: `a"b<c>&d` }, 'x.html');
    expect(odd).toContain('content="a&quot;b&lt;c&gt;&amp;d"');
  });

  it('are replaced, not repeated, when the export is processed again', () => {
    const again = insertEarlyMeta(html, { ...META, referrerPolicy: 'no-referrer' }, 'index.html');
    expect(again.match(/http-equiv="Content-Security-Policy"/g)).toHaveLength(1);
    expect(again.match(/<meta name="referrer"/g)).toHaveLength(1);
    expect(again).toContain('<meta name="referrer" content="no-referrer"/>');
  });

  it('stop the build when the page does not look as Next.js writes it', () => {
    expect(() => insertEarlyMeta('<html><head></head></html>', META, 'a.html')).toThrow(
      /a\.html: expected exactly one/,
    );
    const twice = PAGE.replace('<head>', '<head><meta charSet="utf-8"/>');
    expect(() => insertEarlyMeta(twice, META, 'b.html')).toThrow(/expected exactly one/);
    const scriptFirst = PAGE.replace('<head>', '<head><script>x()</script>');
    expect(() => insertEarlyMeta(scriptFirst, META, 'c.html')).toThrow(/<script before/);
  });
});
