/**
 * Starts the hosts of the matrix that the web servers do not serve (support/hosts/matrix.ts), once
 * for the whole run, after the web servers have built `out/` and `out-preview/`; stops them after.
 */
import path from 'node:path';

import { startMatrixHosts } from '../../support/hosts/matrix';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const hosts = await startMatrixHosts(path.resolve(__dirname, '../..'));
  return async () => {
    await Promise.all(hosts.map((host) => host.stop()));
  };
}
