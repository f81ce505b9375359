import type { ComponentType } from 'react';
import ComingSoon from '@/components/pages/ComingSoon';

/**
 * The page registry: every registered page name and the component it renders. `/` renders
 * `mainPage`; `/{PageName}` renders each entry; every other path is the 404 screen. Adding a page is
 * one line here (the route's static params come from this object).
 */
export const pages = {
  ComingSoon,
} satisfies Record<string, ComponentType>;

export type PageName = keyof typeof pages;

export const mainPage: PageName = 'ComingSoon';

export const pageNames = Object.keys(pages) as PageName[];

export function isPageName(name: string): name is PageName {
  return Object.prototype.hasOwnProperty.call(pages, name);
}
