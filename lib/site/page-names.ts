/**
 * The registered page names, apart from the components that render them (pages.config.ts), so that
 * library code can ask "is this a page?" without importing any UI. `/` shows `mainPage`;
 * `/{PageName}` shows each name; every other path is the 404 screen. Adding a page is one name here
 * and one entry in pages.config.ts (the type checker insists on both).
 */
export const pageNames = ['ComingSoon'] as const;

export type PageName = (typeof pageNames)[number];

export const mainPage: PageName = 'ComingSoon';

export function isPageName(name: string): name is PageName {
  return (pageNames as readonly string[]).includes(name);
}
