/** What `npm start` and `npm run dev` share about running the site next to the local platform. */

/** A whole, non-negative number from the environment, or the fallback when unset. */
export function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
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
