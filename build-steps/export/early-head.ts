/**
 * What travels with the HTML for hosts that send none of our headers (Base44 hosting, GitHub Pages,
 * S3), put into each exported page right after `<meta charSet>`:
 * - the site's Content-Security-Policy as `<meta http-equiv>` (deploy/headers/policy.ts, without
 *   what a meta policy cannot carry) and the referrer policy as `<meta name="referrer">`;
 * - in every page but the 404 page itself, that page's prerendered 404 screen as
 *   `<template data-missing-page>`, which the early script shows before the first paint where a host
 *   served the page at an address that names no page (lib/site/missing-page.ts). Inert until then:
 *   no text of the page, nothing React hydrates.
 *
 * Position matters. A meta policy governs only what comes after it, so it goes before the first
 * inline script and style; and the browser fetches the page's scripts with the referrer policy in
 * force when it meets them, so `strict-origin` must come before the first request, or the
 * `?access_token=` of a login redirect rides along in their Referer (React places the layout's own
 * referrer meta after Next's script tags). Inserted after the CSP hashes were taken, outside every
 * script and style, so the hashes stay those of the page as the browser hashes it.
 */
import { MISSING_PAGE_ATTRIBUTE } from '../../lib/site/missing-page';

const CHARSET = '<meta charSet="utf-8"/>';
const PREVIOUS = new RegExp(
  `^<meta http-equiv="Content-Security-Policy" content="[^"]*"/><meta name="referrer" content="[^"]*"/>(<template ${MISSING_PAGE_ATTRIBUTE}="">[\\s\\S]*?</template>)?`,
);

export interface EarlyHead {
  /** The meta Content-Security-Policy (metaContentSecurityPolicy). */
  contentSecurityPolicy: string;
  /** The Referrer-Policy value. */
  referrerPolicy: string;
  /** The static 404 screen (notFoundScreenOf), or null for the 404 page itself. */
  notFoundScreen: string | null;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The prerendered 404 screen of 404.html: its one `<main>`, which holds no script. */
export function notFoundScreenOf(notFoundHtml: string): string {
  const screens = notFoundHtml.match(/<main\b[\s\S]*?<\/main>/g) ?? [];
  const [screen] = screens;
  if (screens.length !== 1 || !screen || /<script|<template/i.test(screen)) {
    throw new Error('404.html: expected one <main> without scripts; update build-steps/export/early-head.ts');
  }
  return screen;
}

/** The page with the early elements in place; throws when Next.js's markup is not as expected. */
export function insertEarlyHead(html: string, head: EarlyHead, file: string): string {
  const at = html.indexOf(CHARSET);
  if (at < 0 || html.indexOf(CHARSET, at + 1) >= 0) {
    throw new Error(`${file}: expected exactly one ${CHARSET}; update build-steps/export/early-head.ts`);
  }
  const end = at + CHARSET.length;
  for (const tag of ['<script', '<style', '<link']) {
    const first = html.indexOf(tag);
    if (first >= 0 && first < end) throw new Error(`${file}: ${tag} before ${CHARSET}; the meta policy would miss it`);
  }
  const elements =
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(head.contentSecurityPolicy)}"/>` +
    `<meta name="referrer" content="${escapeAttribute(head.referrerPolicy)}"/>` +
    (head.notFoundScreen === null ? '' : `<template ${MISSING_PAGE_ATTRIBUTE}="">${head.notFoundScreen}</template>`);
  // A second run over the same export replaces what the first inserted.
  const rest = html.slice(end).replace(PREVIOUS, '');
  return `${html.slice(0, end)}${elements}${rest}`;
}
