import type { ComponentType } from 'react';

import ComingSoon from '@/components/pages/ComingSoon';
import type { PageName } from '@/lib/site/page-names';

export { isPageName, mainPage, pageNames, type PageName } from '@/lib/site/page-names';

/**
 * The page registry: the component each registered page name (lib/site/page-names.ts) renders.
 * `satisfies` makes a name without a component, or a component without a name, a type error.
 */
export const pages = {
  ComingSoon,
} satisfies Record<PageName, ComponentType>;
