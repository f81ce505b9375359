/**
 * Whether a static host that serves the export by the rules of deploy/static-host shows one of the
 * site's pages at `pathname`: `/`, `/index`, `/index.html`, and each registered name as `/Name`,
 * `/Name/` or `/Name.html`, segment by segment URL-decoded, empty segments skipped (`//ComingSoon`).
 * Everything else (unknown names, deeper paths, `.`/`..`, an encoded `/` or `\`, bad escapes, NUL)
 * is no page: there such a host answers with 404.html, while an SPA-only host answers with
 * index.html, and then this check is what still shows the 404 screen.
 *
 * Self-contained on purpose (no imports, no outer variables, syntax every engine runs): EarlyHead
 * inlines this function's own source into every page as part of the check that runs before the first
 * paint, and the client shell calls the same function after hydration (MissingPageScreen).
 */
export function isExportedPagePath(pathname: string, pageNames: readonly string[]): boolean {
  const segments: string[] = [];
  const parts = pathname.split('/');
  for (let index = 0; index < parts.length; index += 1) {
    const raw = parts[index];
    if (raw === undefined || raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return false;
    }
    if (segment === '.' || segment === '..' || /[\\/\0]/.test(segment)) return false;
    segments.push(segment);
  }
  if (segments.length === 0) return true;
  if (segments.length > 1) return false;
  let name = segments[0] as string;
  if (name.slice(-5) === '.html') {
    // `/Name.html/` names a folder, which the export does not have.
    if (pathname.charAt(pathname.length - 1) === '/') return false;
    name = name.slice(0, -5);
  }
  return name === 'index' || pageNames.indexOf(name) >= 0;
}
