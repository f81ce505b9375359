/**
 * The `base44:runtime` module of deployed functions (`import { secrets, waitUntil } from
 * "base44:runtime"`), for functions run by the emulator: `host.ts` runs with an import map that
 * points the bare specifier here. Secrets are the platform's per-app secrets; locally they are the
 * environment the emulator was started with (export a variable to try a function that reads it),
 * so a production secret is never copied onto a developer machine.
 */

export const secrets: { get(name: string): string | undefined } = {
  get: (name: string) => Deno.env.get(name),
};

/**
 * Work that continues after the answer was sent. The local function is a long-lived process, so
 * there is nothing to hold open: the promise is returned as is, and a rejection is logged against
 * the function instead of surfacing as an unhandled rejection that would end the process.
 */
export function waitUntil<T>(promise: Promise<T>): Promise<T> {
  promise.catch((error: unknown) => {
    console.error(`[${Deno.env.get('FUNCTION_NAME') ?? 'function'}] waitUntil task failed:`, error);
  });
  return promise;
}
