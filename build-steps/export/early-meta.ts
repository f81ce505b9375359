/**
 * The protections that travel with the HTML, for hosts that send none of our headers (Base44
 * hosting, GitHub Pages, S3): each exported page gets the site's Content-Security-Policy as
 * `<meta http-equiv>` (deploy/headers/policy.ts, without what a meta policy cannot carry) and the
 * referrer policy as `<meta name="referrer">`, right after `<meta charSet>`.
 *
 * Position matters for both. A meta policy governs only what comes after it, so it goes before the
 * first inline script and style; and the browser fetches the page's scripts with the referrer policy
 * in force when it meets them, so `strict-origin` must come before the first request, or the
 * `?access_token=` of a login redirect rides along in their Referer (React places the layout's own
 * referrer meta after Next's script tags). Inserted after the CSP hashes were taken, outside every
 * script and style, so the hashes stay those of the page as the browser hashes it.
 */
const CHARSET = '<meta charSet="utf-8"/>';
const PREVIOUS =
  /^<meta http-equiv="Content-Security-Policy" content="[^"]*"\/><meta name="referrer" content="[^"]*"\/>/;

export interface EarlyMeta {
  /** The meta Content-Security-Policy (metaContentSecurityPolicy). */
  contentSecurityPolicy: string;
  /** The Referrer-Policy value. */
  referrerPolicy: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page with the early meta elements in place; throws when Next.js's markup is not as expected. */
export function insertEarlyMeta(html: string, meta: EarlyMeta, file: string): string {
  const at = html.indexOf(CHARSET);
  if (at < 0 || html.indexOf(CHARSET, at + 1) >= 0) {
    throw new Error(`${file}: expected exactly one ${CHARSET}; update build-steps/export/early-meta.ts`);
  }
  const end = at + CHARSET.length;
  for (const tag of ['<script', '<style', '<link']) {
    const first = html.indexOf(tag);
    if (first >= 0 && first < end) throw new Error(`${file}: ${tag} before ${CHARSET}; the meta policy would miss it`);
  }
  const elements =
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(meta.contentSecurityPolicy)}"/>` +
    `<meta name="referrer" content="${escapeAttribute(meta.referrerPolicy)}"/>`;
  // A second run over the same export replaces what the first inserted.
  const rest = html.slice(end).replace(PREVIOUS, '');
  return `${html.slice(0, end)}${elements}${rest}`;
}
