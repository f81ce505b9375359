import { isPageName, mainPage, type PageName } from './page-names';
import { requestedPageName } from './requested-page-name';

/** The registered page a path shows (`/` is the main page), or null for anything else. */
export function pageForPath(pathname: string): PageName | null {
  const name = requestedPageName(pathname);
  if (name === null) return mainPage;
  return isPageName(name) ? name : null;
}
