/**
 * Firebase Hosting: `out/firebase.json`, for a deploy from out/ itself (`public: "."`; the other
 * hosts' configuration files are not uploaded). Checked on superstatic, Firebase Hosting's serving
 * engine (its emulator's), in the host matrix. What running it showed: with its defaults
 * `/ComingSoon` is a 404 (no `cleanUrls`); with `cleanUrls`, `/index.html?query` redirects to itself
 * without end (the clean address of `/index.html` is an empty path plus the query); and a
 * `redirects` rule to break that loop lets one request for a path that is not valid
 * percent-encoding stop the server (an uncaught `URIError`). So no redirect at all: `cleanUrls` off,
 * and rewrites serve each page from its file under all its addresses, as nginx does. Headers are one
 * entry per `_headers` rule, which never overlap, so their order cannot matter.
 */
import type { HeaderRule } from '../policy';
import { HOST_CONFIG_FILES, pageRewrites, serverRules } from './site-rules';

function headerList(headers: Record<string, string>): Array<{ key: string; value: string }> {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}

/** A `_headers` path pattern as a Firebase glob: `/*` is every path, `/x/*` everything below /x/. */
function globOf(rulePath: string): string {
  if (rulePath === '/*') return '**';
  return rulePath.endsWith('*') ? `${rulePath.slice(0, -1)}**` : rulePath;
}

export function toFirebaseJson(rules: HeaderRule[]): string {
  const site = serverRules(rules);
  const hosting = {
    public: '.',
    ignore: ['**/.*', '**/node_modules/**', ...HOST_CONFIG_FILES.filter((file) => !file.startsWith('.'))],
    cleanUrls: false,
    rewrites: pageRewrites(site).filter(({ source }) => source !== '/'),
    headers: rules.map((rule) => ({ source: globOf(rule.path), headers: headerList(rule.headers) })),
  };
  return `${JSON.stringify({ hosting }, null, 2)}\n`;
}
