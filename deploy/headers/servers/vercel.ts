/**
 * Vercel: `out/vercel.json` for Vercel's platform and `out/serve.json` for `serve`, Vercel's static
 * server (`npx serve out`), which the host matrix runs. Both serve every address of a page from its
 * file with no redirect: `serve` drops the query on every redirect it makes (its `cleanUrls` turns
 * `/ComingSoon.html?access_token=...` into `/ComingSoon`, the token lost), so neither file asks for
 * one. The two formats differ where the servers do: `serve` reads `cleanUrls` as a list of paths
 * and matches header sources as globs against the file served, later entries winning; Vercel reads
 * path-to-regexp sources against the request path, so its rules are written not to overlap.
 */
import { NOT_FOUND_FILES, type HeaderRule } from '../policy';
import { pageRewrites, serverRules } from './site-rules';

type HeaderEntry = { source: string; headers: Array<{ key: string; value: string }> };

function entry(source: string, headers: Record<string, string>): HeaderEntry {
  return { source, headers: Object.entries(headers).map(([key, value]) => ({ key, value })) };
}

/** serve-handler's limits (its configuration schema): it refuses the whole file beyond them. */
const SERVE_LIMITS = { headerValue: 2048, headerEntries: 50 };

function assertServeLimits(headers: HeaderEntry[]): void {
  if (headers.length > SERVE_LIMITS.headerEntries) throw new Error(`serve.json: more than 50 header rules`);
  for (const { headers: list } of headers) {
    for (const { key, value } of list) {
      if (value.length > SERVE_LIMITS.headerValue) {
        throw new Error(`serve.json: ${key} is ${value.length} characters; serve refuses values over 2048`);
      }
    }
  }
}

export function toServeJson(rules: HeaderRule[]): string {
  const site = serverRules(rules);
  const headers = [
    entry('**', { ...site.siteWide, ...site.files }),
    ...site.prefixes.map(({ prefix, headers: prefixHeaders }) => entry(`${prefix}**`, prefixHeaders)),
    // `serve` cannot answer an existing file 404, so `/404.html` is a page there: at least not indexed.
    entry(`{${NOT_FOUND_FILES.join(',')}}`, site.notFoundHeaders),
  ].filter((rule) => rule.headers.length > 0);
  assertServeLimits(headers);
  const config = {
    // A list: only these paths look for `<path>.html` (or `<path>/index.html`), and none redirects.
    cleanUrls: pageRewrites(site).map(({ source }) => source),
    directoryListing: false,
    headers,
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function toVercelJson(rules: HeaderRule[]): string {
  const site = serverRules(rules);
  const prefixes = site.prefixes.map(({ prefix }) => prefix.slice(1));
  const notPrefixed = prefixes.length > 0 ? `/((?!${prefixes.join('|')}).*)` : '/(.*)';
  const config = {
    cleanUrls: false,
    headers: [
      entry('/(.*)', site.siteWide),
      ...site.prefixes.map(({ prefix, headers }) => entry(`${prefix}(.*)`, headers)),
      entry(notPrefixed, site.files),
      // Vercel serves an existing file before any rewrite, so `/404.html` is a page there: not indexed.
      ...NOT_FOUND_FILES.map((file) => entry(`/${file}`, site.notFoundHeaders)),
    ].filter((rule) => rule.headers.length > 0),
    rewrites: pageRewrites(site),
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
