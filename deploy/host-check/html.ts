/**
 * What `check:host` reads from a page's HTML: the policies it carries itself in `<meta>` (which
 * protect it on hosts that send no headers) and one content-hashed asset to probe for caching.
 */

/** The attributes of every `<meta>` element, names lower-cased, entities in values decoded. */
function metaElements(html: string): Array<Map<string, string>> {
  return Array.from(html.matchAll(/<meta\b([^>]*)>/gi), (match) => {
    const attributes = new Map<string, string>();
    for (const attribute of (match[1] ?? '').matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/g)) {
      const value = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
      attributes.set((attribute[1] ?? '').toLowerCase(), decodeEntities(value));
    }
    return attributes;
  });
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The Content-Security-Policy of `<meta http-equiv>`, or null. */
export function metaContentSecurityPolicy(html: string): string | null {
  const meta = metaElements(html).find(
    (attributes) => attributes.get('http-equiv')?.toLowerCase() === 'content-security-policy',
  );
  return meta?.get('content') ?? null;
}

/** The referrer policy of `<meta name="referrer">`, or null. */
export function metaReferrerPolicy(html: string): string | null {
  const meta = metaElements(html).find((attributes) => attributes.get('name')?.toLowerCase() === 'referrer');
  return meta?.get('content')?.trim().toLowerCase() ?? null;
}

/** The first `/_next/static/...` file the page loads (script or stylesheet), or null. */
export function firstStaticAsset(html: string): string | null {
  return /\s(?:src|href)=["'](\/_next\/static\/[^"']+)["']/i.exec(html)?.[1] ?? null;
}

/** A policy as directive name -> its sources (names lower-cased; the first of a repeated one wins). */
export function directivesOf(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(/[;,]/)) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}
