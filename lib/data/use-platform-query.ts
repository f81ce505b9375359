'use client';

import useSWR, { type Key, type SWRConfiguration, type SWRResponse } from 'swr';

import { swrConfig } from './swr-config';

/**
 * useSWR with the site's shared configuration. Data hooks go through here rather than through an
 * SWRConfig provider so SWR is only downloaded by pages that actually load data.
 */
export function usePlatformQuery<Data>(
  key: Key,
  fetcher: () => Promise<Data>,
  options?: SWRConfiguration<Data>,
): SWRResponse<Data> {
  return useSWR<Data>(key, fetcher, { ...swrConfig, ...options });
}
