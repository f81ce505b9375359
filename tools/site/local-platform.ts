/**
 * What `npm start`, `npm run dev` and `npm run serve` share about running the site (next to the
 * local platform): the owner of their run-time settings (HOST, PORT, EMULATOR_*).
 */
import { loadCompiledEmulator } from '../../build-steps/emulator/compile-emulator';
import type { RunningEmulator } from '../../emulator/core/types';

/** A whole, non-negative number from the environment, or the fallback when unset. */
export function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** The HOST the site was asked to listen on, if any (the one place that reads it). */
export function hostSetting(): string | undefined {
  return process.env.HOST;
}

/** Where the site listens: HOST (default 127.0.0.1) and PORT (default 3000). */
export function siteAddress(): { host: string; port: number } {
  return { host: hostSetting() ?? '127.0.0.1', port: numberFromEnv('PORT', 3000) };
}

/**
 * The origins the emulator lets call it and log in for a site on host:port: the site itself under
 * both loopback names, plus EMULATOR_EXTRA_SITE_ORIGINS (e.g. an editor preview build served elsewhere).
 */
export function localSiteOrigins(host: string, port: number): string[] {
  const extra = (process.env.EMULATOR_EXTRA_SITE_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return [...new Set([`http://${host}:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}`, ...extra])];
}

/**
 * Starts the emulator for a site on host:port (EMULATOR_PORT, EMULATOR_DATA_DIR and
 * EMULATOR_LATENCY_MS from the environment) with the repository's base44/ project, and prints its
 * apps, entities and accounts. The emulator runs compiled, as `npm run emulator` runs it.
 */
export async function startLocalPlatform(host: string, port: number): Promise<RunningEmulator> {
  // Only the compiled emulator is loaded here: importing emulator/ too would load it twice.
  const { startEmulator, describeSeed, REPOSITORY_ROOT } = await loadCompiledEmulator();
  const emulator = await startEmulator({
    // The repository is the Base44 project: its base44/ entities apply, as with `base44 dev`.
    projectDir: REPOSITORY_ROOT,
    host,
    port: numberFromEnv('EMULATOR_PORT', 3001),
    dataDir: process.env.EMULATOR_DATA_DIR || undefined,
    latencyMs: numberFromEnv('EMULATOR_LATENCY_MS', 0),
    siteOrigins: localSiteOrigins(host, port),
  });
  console.log(describeSeed(emulator.seed, emulator.url, emulator.entityNames()));
  return emulator;
}
