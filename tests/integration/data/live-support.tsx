/**
 * Shared pieces of the live-hook tests: a fresh SWR cache per render, clients whose list/read
 * requests are counted (to tell "applied in place" from "refetched"), and a server-side comparison.
 */
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

import type { PlatformClient } from '@/lib/sdk';
import type { Clients } from '@/tests/support/emulator-clients';

export function FreshCache({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: () => new Map() }}>{children}</SWRConfig>;
}

export interface CountedClient {
  client: PlatformClient;
  /** GET requests whose path ends with `pathSuffix` so far. */
  reads(pathSuffix: string): number;
}

/** A client that counts its GET requests by path. */
export function countedClient(
  clients: Clients,
  url: string,
  token: string | null,
  serviceToken?: string,
): CountedClient {
  const paths: string[] = [];
  const client = clients.create(url, {
    token,
    serviceToken,
    fetch: (input, init) => {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const url = input instanceof Request ? input.url : String(input);
      if (method.toUpperCase() === 'GET') paths.push(new URL(url).pathname);
      return fetch(input, init);
    },
  });
  return { client, reads: (suffix) => paths.filter((path) => path.endsWith(suffix)).length };
}
