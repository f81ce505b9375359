/**
 * The headers our model of a host sends, as Cloudflare Pages sends them: Pages' own headers on every
 * answer (`Access-Control-Allow-Origin: *`, `Referrer-Policy: strict-origin-when-cross-origin`,
 * `X-Content-Type-Options: nosniff`, and for files `Cache-Control: public, max-age=0,
 * must-revalidate`), then every `_headers` rule that matches the path as requested: its `! Name`
 * lines remove a header, its values replace Pages' own (values of several rules are joined, see
 * headersForPath). So an export whose `_headers` forgot the `!` line gets `*` here too, as on Pages.
 * Without a `_headers` file (an export of plain `next build`), files are cached as a CDN should:
 * hashed assets for a year, everything else revalidated.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { headersForPath, parseHeadersFile } from '../headers/formats';
import { rulePathMatches, type HeaderRule } from '../headers/policy';
import { cacheControlFor } from './cache-policy';

export interface HostHeaders {
  /** For a file answered 200 or 404 (the server puts the 404's own caching over it). */
  file(urlPath: string): Record<string, string>;
  /** For a redirect. */
  redirect(urlPath: string): Record<string, string>;
}

const PAGES_OWN_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Content-Type-Options': 'nosniff',
};

/** What Cloudflare Pages sends for a file that no `_headers` rule gives a Cache-Control. */
const PAGES_DEFAULT_CACHING = 'public, max-age=0, must-revalidate';

/** `defaults`, then the rules that match `urlPath`: `!` removes, a value replaces (names match in any case). */
function applyRules(rules: HeaderRule[], urlPath: string, defaults: Record<string, string>): Record<string, string> {
  const headers = new Map(Object.entries(defaults).map(([name, value]) => [name.toLowerCase(), [name, value]]));
  const matching = rules.filter((rule) => rulePathMatches(rule.path, urlPath));
  for (const name of matching.flatMap((rule) => rule.detach ?? [])) headers.delete(name.toLowerCase());
  for (const [name, value] of Object.entries(headersForPath(rules, urlPath)))
    headers.set(name.toLowerCase(), [name, value]);
  return Object.fromEntries(headers.values());
}

export function loadHostHeaders(root: string): HostHeaders {
  const file = path.join(root, '_headers');
  if (!existsSync(file)) {
    return {
      file: (urlPath) => ({ ...PAGES_OWN_HEADERS, 'Cache-Control': cacheControlFor(urlPath) }),
      redirect: () => ({ ...PAGES_OWN_HEADERS }),
    };
  }
  const rules = parseHeadersFile(readFileSync(file, 'utf8'));
  return {
    file: (urlPath) => applyRules(rules, urlPath, { ...PAGES_OWN_HEADERS, 'Cache-Control': PAGES_DEFAULT_CACHING }),
    redirect: (urlPath) => applyRules(rules, urlPath, PAGES_OWN_HEADERS),
  };
}
