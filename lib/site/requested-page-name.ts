// Kept apart from page-for-path.ts: the 404 screen needs this on its first load, without the page
// registry (and the page components it imports).

/**
 * The page name a path asks for: the path without its outer slashes, URL-decoded (kept as it is
 * when it is not valid percent-encoding); null for `/`.
 */
export function requestedPageName(pathname: string): string | null {
  const trimmed = pathname.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return null;
  try {
    return decodeURIComponent(trimmed);
  } catch {
    return trimmed;
  }
}
