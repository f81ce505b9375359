/**
 * The e2e fixtures plus the header-less hosts (support/hosts/test-hosts.ts), started once per worker
 * on their fixed ports after the web servers have built `out/` and `out-preview/`.
 */
import path from 'node:path';

import { startHeaderLessHosts, type HeaderLessHostName } from '../../../support/hosts/test-hosts';
import type { RunningHost } from '../../../support/hosts/types';
import { test as base } from '../fixtures';

const ROOT = path.resolve(__dirname, '../../..');

export const test = base.extend<object, { hosts: Record<HeaderLessHostName, RunningHost> }>({
  hosts: [
    async ({}, use) => {
      const hosts = await startHeaderLessHosts(ROOT);
      await use(hosts);
      await Promise.all(Object.values(hosts).map((host) => host.stop()));
    },
    { scope: 'worker' },
  ],
});

export { expect } from '../fixtures';
