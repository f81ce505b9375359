import { isPageName, mainPage, type PageName } from '@/pages.config';

/** The registered page a path shows (`/` is the main page), or null for anything else. */
export function pageForPath(pathname: string): PageName | null {
  const trimmed = pathname.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return mainPage;
  let name: string;
  try {
    name = decodeURIComponent(trimmed);
  } catch {
    return null;
  }
  return isPageName(name) ? name : null;
}
