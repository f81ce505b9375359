/**
 * Time from starting the auth check to a resolved gate, against the emulator delaying every
 * response: our flow (settings and user in parallel) next to the sequential flow of the reference
 * shell (settings, then user). Runs in Node over real HTTP, so both are measured the same way.
 */
import { performance } from 'node:perf_hooks';

import { loadCompiledEmulator } from '../../build-steps/emulator/compile-emulator';
import { loginToken } from '../../emulator/seed/seeded-login';
import { createAuthFlow } from '../../lib/auth/auth-flow';
import { authStore } from '../../lib/auth/auth-store';
import { createClient } from '../../lib/sdk';
import { median } from '../../support/figures';

export interface GateTiming {
  latencyMs: number;
  runs: number;
  parallelMedianMs: number;
  sequentialMedianMs: number;
  resolvedAs: string;
}

export async function measureGateTiming({ latencyMs = 100, runs = 7 } = {}): Promise<GateTiming> {
  const { startEmulator } = await loadCompiledEmulator();
  const emulator = await startEmulator({ port: 0, quiet: true, latencyMs });
  try {
    const token = await loginToken(emulator.url, 'coming-soon', 'user@example.com');
    const client = createClient({ serverUrl: emulator.url, appId: 'coming-soon', token });

    const parallel: number[] = [];
    const sequential: number[] = [];
    for (let run = 0; run < runs; run++) {
      authStore.reset();
      let started = performance.now();
      await createAuthFlow(client).checkAppState();
      parallel.push(performance.now() - started);

      started = performance.now();
      await client.publicSettings.get();
      await client.auth.me();
      sequential.push(performance.now() - started);
    }
    return {
      latencyMs,
      runs,
      parallelMedianMs: Math.round(median(parallel)),
      sequentialMedianMs: Math.round(median(sequential)),
      resolvedAs: authStore.get().state.status,
    };
  } finally {
    await emulator.close();
  }
}

if (require.main === module) {
  measureGateTiming().then((figures) => console.log(figures));
}
