/**
 * Sign-in and token calls where `window` is only partly there, as in embedded runtimes, webviews and
 * the reference's own unit tests: a `location` with an empty or absolute `href` and no `origin`, a
 * `localStorage` without a `location`, a storage that throws. Node rows: each run puts a minimal
 * `window` on globalThis for the calls and removes it again, and reports where the page was sent
 * (`location.href` as assigned, relative or absolute), what reached storage and what was logged.
 */
import type { ConformanceClient, Observation } from '../observe';
import { argumentError, captureConsoleErrors, copy, rows } from './helpers';

interface MinimalLocation {
  href?: string;
  origin?: string;
  reload?: () => void;
}

/** A storage stub that records every call, optionally refusing writes and removals. */
function recordingStorage(refuse = false) {
  const calls: string[] = [];
  const write = (name: string) => (key: string, value?: string) => {
    calls.push(value === undefined ? `${name}(${key})` : `${name}(${key}, ${value})`);
    if (refuse) throw new Error('The quota has been exceeded.');
  };
  return { calls, storage: { getItem: () => null, setItem: write('setItem'), removeItem: write('removeItem') } };
}

/**
 * Runs `act` with `globalThis.window` set to a window holding only `parts`, then reports the
 * location's `href` as the client left it, the storage calls and the console errors.
 */
async function inMinimalWindow(
  parts: { location?: MinimalLocation; storage?: ReturnType<typeof recordingStorage> },
  act: () => void,
) {
  const globals = globalThis as { window?: unknown };
  const location = parts.location ? { ...parts.location } : undefined;
  globals.window = {
    ...(location ? { location } : {}),
    ...(parts.storage ? { localStorage: parts.storage.storage } : {}),
  };
  const logged = captureConsoleErrors();
  try {
    act();
    return { href: location?.href ?? null, storage: parts.storage?.calls ?? [], logged: logged.lines };
  } finally {
    logged.stop();
    delete globals.window;
  }
}

/** The row's outcome with ours navigating to `href` where the reference failed or went elsewhere. */
const outcomeWithHref = (deviationId: string, href: (reference: Observation) => string) => ({
  id: deviationId,
  adjust(reference: Observation): Observation {
    const adjusted = copy(reference);
    const result = 'result' in adjusted.outcome ? (adjusted.outcome.result as Record<string, unknown>) : {};
    adjusted.outcome = { result: { storage: [], logged: [], ...result, href: href(reference) } };
    return adjusted;
  },
});

const NEXT = 'https://example.com/dashboard';
// The reference declares `nextUrl` required, yet reads a missing one as "this page" (its own tests call it so).
const redirect = (client: ConformanceClient, next?: string) => () => client.auth.redirectToLogin(next as string);

export const minimalWindowRows = rows(
  {
    name: 'minimal window: redirectToLogin with an empty href and an absolute next address goes to /login',
    covers: ['auth.redirectToLogin'],
    run: (client) => inMinimalWindow({ location: { href: '' } }, redirect(client, NEXT)),
  },
  {
    name: 'minimal window: redirectToLogin without a next address returns to location.href, by a relative /login',
    covers: ['auth.redirectToLogin'],
    run: (client) => inMinimalWindow({ location: { href: 'https://example.com/current-page' } }, redirect(client)),
  },
  {
    name: 'minimal window: redirectToLogin where the window has no address and the caller named none',
    covers: ['auth.redirectToLogin'],
    run: (client) => inMinimalWindow({ location: { href: '' } }, redirect(client)),
    deviation: outcomeWithHref('no-return-address', () => '/login'),
  },
  {
    name: 'minimal window: redirectToLogin with an app base URL and an empty href',
    covers: ['auth.redirectToLogin'],
    config: { appBaseUrl: 'https://custom-app.example.com' },
    run: (client) => inMinimalWindow({ location: { href: '' } }, redirect(client, NEXT)),
  },
  {
    name: 'minimal window: redirectToLogin without an app base URL stays a path, the next address resolved against the origin',
    covers: ['auth.redirectToLogin'],
    run: (client) =>
      inMinimalWindow({ location: { href: '', origin: 'https://current-app.com' } }, redirect(client, '/after?x=1')),
  },
  {
    name: 'minimal window: a relative next address without any page address is refused',
    covers: ['auth.redirectToLogin'],
    run: (client) => inMinimalWindow({ location: { href: '' } }, redirect(client, '/after')),
    deviation: {
      id: 'argument-error-code',
      adjust(reference: Observation): Observation {
        // The reference only passes on the URL parser's TypeError; ours names the argument.
        const adjusted = argumentError('INVALID_ARGUMENT').adjust(reference);
        if ('error' in adjusted.outcome) adjusted.outcome.error.message = 'nextUrl is not a valid URL';
        return adjusted;
      },
    },
  },
  {
    name: 'minimal window: without location.origin a relative next address resolves against location.href',
    covers: ['auth.redirectToLogin'],
    run: (client) => inMinimalWindow({ location: { href: 'https://site.example/p?q=1' } }, redirect(client, '/after')),
    deviation: outcomeWithHref(
      'origin-from-address',
      () => `/login?from_url=${encodeURIComponent('https://site.example/after')}`,
    ),
  },
  {
    name: 'minimal window: setToken stores in a window that has only localStorage',
    covers: ['auth.setToken', 'auth.hasToken'],
    async run(client) {
      const storage = recordingStorage();
      const seen = await inMinimalWindow({ storage }, () => client.auth.setToken('stored-token', true));
      return { ...seen, held: client.auth.hasToken() };
    },
  },
  {
    name: 'minimal window: setToken into a storage that throws logs the failure and keeps the token',
    covers: ['auth.setToken', 'auth.hasToken'],
    async run(client) {
      const storage = recordingStorage(true);
      const seen = await inMinimalWindow({ storage }, () => client.auth.setToken('kept-in-memory', true));
      return { ...seen, held: client.auth.hasToken() };
    },
  },
  {
    name: 'minimal window: logout with a throwing storage logs it and still leaves through the platform logout',
    covers: ['auth.logout'],
    config: { token: 'user-token' },
    async run(client) {
      const storage = recordingStorage(true);
      const seen = await inMinimalWindow({ storage, location: { href: 'https://site.example/p' } }, () =>
        client.auth.logout(),
      );
      return { ...seen, held: client.auth.hasToken() };
    },
  },
  {
    name: 'minimal window: logout where the window has no address removes both keys and leaves without a return address',
    covers: ['auth.logout'],
    config: { token: 'user-token' },
    run: (client) =>
      inMinimalWindow({ storage: recordingStorage(), location: { reload: () => undefined } }, () =>
        client.auth.logout(),
      ),
    deviation: outcomeWithHref('no-return-address', () => '/api/apps/auth/logout'),
  },
);
