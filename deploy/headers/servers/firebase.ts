/**
 * Firebase Hosting: `out/firebase.json`, for a deploy from out/ itself (`public: "."`; the other
 * hosts' configuration files are not uploaded). Checked on superstatic, Firebase Hosting's serving
 * engine (its emulator's), in the host matrix. What running it showed: with its defaults
 * `/ComingSoon` is a 404 (no `cleanUrls`); with `cleanUrls`, `/index.html?query` redirects to itself
 * without end (the clean address of `/index.html` is an empty path plus the query); and a
 * `redirects` rule to break that loop lets one request for a path that is not valid
 * percent-encoding stop the server (an uncaught `URIError`). So no redirect at all: `cleanUrls` off,
 * and rewrites serve each page from its file under all its addresses, as nginx does. Headers are one
 * entry per `_headers` rule, which never overlap, so their order cannot matter; but a prefix rule
 * (`/_next/static/*`, a year `immutable`) names the files of the export under it one by one: Firebase
 * matches header rules against the path asked for, whatever the answer, so a prefix glob also caches
 * the 404 page of a missing file there for a year (seen on superstatic), which outlives a deploy that
 * brings the file back, such as a rollback.
 */
import type { HeaderRule } from '../policy';
import { escapeRegExp, HOST_CONFIG_FILES, pageRewrites, serverRules } from './site-rules';

function headerList(headers: Record<string, string>): Array<{ key: string; value: string }> {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}

type HeaderEntry = ({ source: string } | { regex: string }) & { headers: Array<{ key: string; value: string }> };

/**
 * A `_headers` rule as a Firebase header entry: `/*` is every path (`**`), an exact path itself, and
 * a prefix (`/x/*`) exactly the files of the export below it (an RE2 expression; none: no entry).
 */
function headerEntry(rule: HeaderRule, exportPaths: readonly string[]): HeaderEntry | null {
  const headers = headerList(rule.headers);
  if (rule.path === '/*') return { source: '**', headers };
  if (!rule.path.endsWith('*')) return { source: rule.path, headers };
  const prefix = rule.path.slice(0, -1);
  const files = exportPaths.filter((file) => file.startsWith(prefix)).map(escapeRegExp);
  return files.length === 0 ? null : { regex: `^(?:${files.join('|')})$`, headers };
}

/** `exportPaths`: every file of the export as a URL path (`/_next/static/chunks/a.js`). */
export function toFirebaseJson(rules: HeaderRule[], exportPaths: readonly string[]): string {
  const site = serverRules(rules);
  const hosting = {
    public: '.',
    ignore: ['**/.*', '**/node_modules/**', ...HOST_CONFIG_FILES.filter((file) => !file.startsWith('.'))],
    cleanUrls: false,
    rewrites: pageRewrites(site).filter(({ source }) => source !== '/'),
    headers: rules.flatMap((rule) => headerEntry(rule, exportPaths) ?? []),
  };
  return `${JSON.stringify({ hosting }, null, 2)}\n`;
}
