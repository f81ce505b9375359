/**
 * How long a test may wait for something it expects (a socket join, a live edit, a server start)
 * before it fails. `npm test` runs Jest beside the browser suites on two cores, so every test runs on
 * a loaded machine; CI run 13 (2026-11-28) ran at a load of 10 to 22 and saw a first socket join
 * take over 12 s and a 20,000-record live-query test over 20 s. These limits only end a test that is
 * already failing, so they are set for such a machine, not for a quiet one.
 */

/**
 * A single wait inside a test (polling for a condition). A whole test, which may wait several times,
 * has twice this: Jest's `testTimeout` in jest.config.mjs (which cannot import TypeScript).
 */
export const WAIT_LIMIT_MS = 30_000;

const POLL_MS = 10;

/**
 * Polls `check` until it returns (or resolves to) something other than `undefined` or `false`, and
 * returns that; fails naming `what` after `timeoutMs`. A shorter limit is for a test whose point is
 * that something happens within a time (a reconnect's delay), not for an ordinary wait.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what = 'the condition',
  timeoutMs = WAIT_LIMIT_MS,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
