/**
 * The one SWR configuration of the site (docs/SPEC.md section 9): failed queries are retried once, and
 * queries are not refetched when the window regains focus.
 */
import type { SWRConfiguration } from 'swr';

export const swrConfig = {
  revalidateOnFocus: false,
  shouldRetryOnError: true,
  errorRetryCount: 1,
} as const satisfies SWRConfiguration;
