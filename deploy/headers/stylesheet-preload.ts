/**
 * The `Link` header that lets a browser fetch the pages' stylesheet before it has parsed a byte of
 * the page.
 *
 * A page's first paint waits for its stylesheet, and the browser asks for the stylesheet only when
 * its parser reaches the `<link>`: after committing the navigation (making the document and its
 * script context, 46–290 ms on a 4× slower CPU in our traces) and parsing the head. Chromium's
 * preload scanner cannot start it sooner here (it runs in the same parse task, and it stops at the
 * CSP `<meta>`: a `<link rel="preload">` in the HTML, even before the `<meta>`, was requested no
 * earlier). A `Link: <…>; rel=preload; as=style` response header is read when the navigation
 * commits, so the request goes out before the parse (docs/PERFORMANCE.md, "The stylesheet's
 * request"); Cloudflare Pages also sends it as a 103 Early Hint, before the page's response.
 */

/** A stylesheet address as Next.js writes it: nothing that could end the header's `<…>` or need escaping. */
const STYLESHEET = /^\/_next\/static\/[\w./-]+\.css$/;

/** The `href` of every `<link rel="stylesheet">` of a page, in order. */
export function stylesheetHrefs(html: string): string[] {
  return [...html.matchAll(/<link\b[^>]*>/gi)]
    .map((match) => match[0])
    .filter((tag) => /\srel="stylesheet"/i.test(tag))
    .map((tag) => /\shref="([^"]*)"/i.exec(tag)?.[1] ?? '')
    .filter((href) => href !== '');
}

/**
 * The stylesheets every page links, in the first page's order. The header goes on every answer
 * (policy.ts), so a stylesheet only some pages link (a page's own, as a site with more pages may
 * have) would be fetched, and warned about as unused, on all the others.
 */
export function stylesheetsOfEveryPage(pages: readonly { stylesheets?: readonly string[] }[]): string[] {
  const [first, ...others] = pages.map((page) => page.stylesheets ?? []);
  return (first ?? []).filter((href) => others.every((hrefs) => hrefs.includes(href)));
}

/** The `Link` header value preloading `hrefs` (in order, each once), or null when there are none. */
export function stylesheetPreloadHeader(hrefs: readonly string[]): string | null {
  const unexpected = hrefs.find((href) => !STYLESHEET.test(href) || href.includes('..'));
  if (unexpected !== undefined) throw new Error(`unexpected stylesheet address ${JSON.stringify(unexpected)}`);
  const links = [...new Set(hrefs)].map((href) => `<${href}>; rel=preload; as=style`);
  return links.length > 0 ? links.join(', ') : null;
}
